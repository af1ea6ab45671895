import { useCallback, useContext, useEffect, useId, useRef, useState } from "react";
import { UNSAFE_FetchersContext, useFetcher } from "react-router";
import type { z } from "zod";
import { actionKeyField, newActionKey } from "~/http/action-key";
import { useToast } from "./toast";

/** What every action answers: a message for the toast (empty: nothing to say). */
export interface ActionAnswer {
  ok: boolean;
  message: string;
  /** The field a refusal is about, when it is about one (a form puts the message there). */
  field?: string;
  /** The request failed on the way or the server failed: the form keeps its text (ui/unreachable.ts). */
  unreachable?: true;
}

/**
 * The name of the action a form asks its route for (the `intent` field every action reads):
 * one of the names the features register, so a misspelled intent fails the typecheck.
 */
export type { IntentName } from "~/core/intent-names";
import type { IntentName } from "~/core/intent-names";

/** A change's fields as a form sends them: its intent and its named values. */
export type ActionFields = { intent: IntentName } & Record<string, string>;

export interface SubmitOptions<T extends ActionAnswer> {
  /** Another route whose action takes this intent (its loaders' data is reloaded all the same). */
  action?: string;
  /** The caller shows the answer next to its form instead of in the toast region. */
  inline?: boolean;
  /**
   * The rules the server checks these fields with (the intent's own zod schema): checked here
   * first, so a refusal is shown at once, in the server's words, without a request.
   */
  schema?: z.ZodType;
  /** A request that changes nothing (a preview): whatever the toast region shows stays. */
  quiet?: boolean;
  /** Called with the answer, the server's or the schema's refusal. */
  onDone?: (answer: T) => void;
}

export type ActionHandle<T extends ActionAnswer = ActionAnswer> = ReturnType<typeof useAction<T>>;

/**
 * The one way a page submits a change: its `intent` and fields go to a route's action in place
 * (no navigation), checked first with the schema the server uses, and the answer is shown in
 * the toast region or handed to the caller. The page's loaders run again after a success, so
 * what it shows is the server's. `ActionForm` is this hook as a form.
 */
export function useAction<T extends ActionAnswer = ActionAnswer>() {
  const fetcherKey = useId();
  const fetcher = useFetcher<T>({ key: fetcherKey });
  /** The router's answers by fetcher, filled as each arrives, before any render shows it. */
  const answers = useContext(UNSAFE_FetchersContext)?.fetcherData;
  const toast = useToast();
  const onDone = useRef<{ done: (answer: T) => void; inline: boolean } | null>(null);
  /** What was sent last, with its key: Retry sends exactly this again. */
  const lastSent = useRef<{
    fields: ActionFields | FormData;
    action?: string;
    done: (answer: T) => void;
    inline: boolean;
  }>(null);
  /** How many `LostChange`s show this hook's failed request in place (none: the toast region does). */
  const shownInPlace = useRef(0);
  const showInPlace = useCallback((shown: boolean) => {
    shownInPlace.current += shown ? 1 : -1;
  }, []);
  const [lost, setLost] = useState(false);
  const { state, data } = fetcher;

  const send = () => {
    const last = lastSent.current;
    if (!last) return;
    setLost(false);
    onDone.current = { done: last.done, inline: last.inline };
    const encType = last.fields instanceof FormData ? "multipart/form-data" : undefined;
    const pending = onDone.current;
    const before = answers?.get(fetcherKey);
    void fetcher.submit(last.fields, { method: "post", action: last.action, encType }).then(() => {
      // The page's reload after a change can remove the component that asked (a role change
      // takes the learner's card away) in the very render that carries the answer, and then no
      // effect of this component runs: the answer is told here, from the router's own record,
      // as soon as the request is done. A later render's effect finds nothing left to tell.
      const answer = answers?.get(fetcherKey) as T | undefined;
      if (!pending || onDone.current !== pending || !answer || answer === before) return;
      onDone.current = null;
      tell(answer, pending.inline, pending.done);
    });
  };

  const tell = (answer: T, inline: boolean, done: (answer: T) => void) => {
    if (answer.unreachable) {
      // Not done: the form keeps its text until Retry gets an answer.
      setLost(true);
      if (shownInPlace.current === 0) toast.error(answer.message, send);
      return;
    }
    if (!inline) {
      if (!answer.ok) toast.error(answer.message);
      else if (answer.message) toast.success(answer.message);
    }
    done(answer);
  };

  useEffect(() => {
    // The answer is there once the action has run ("loading" is the page's data reloading after
    // it): told now, before that reload can remove the component that asked (a role change).
    if (state === "submitting" || !data || !onDone.current) return;
    const { done, inline } = onDone.current;
    onDone.current = null;
    tell(data as T, inline, done);
    // `tell` is made again each render; only a new answer matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, data, toast]);

  return {
    busy: state !== "idle",
    /** The last change could not reach the server (or the server failed): `retry` sends it again. */
    lost,
    /** For `LostChange`: it shows a failed request in place, so the toast region need not. */
    showInPlace,
    /** Sends the last change again, with the same key: the server makes it at most once. */
    retry() {
      toast.clear();
      send();
    },
    /** Sends the fields (a FormData, from a form with a file, goes as multipart). */
    submit(fields: ActionFields | FormData, options: SubmitOptions<T> = {}) {
      const { inline = false, quiet = false, schema } = options;
      const done = options.onDone ?? (() => {});
      if (!quiet) toast.clear();
      setLost(false);
      const refusal = schema && checkFields(schema, fields);
      if (refusal) {
        onDone.current = null;
        return tell(refusal as T, inline, done);
      }
      // A new submission, a new key: the server makes the change once however often it is sent.
      const key = newActionKey();
      let sent: ActionFields | FormData;
      if (fields instanceof FormData) {
        sent = new FormData();
        for (const [name, value] of fields) sent.append(name, value);
        sent.set(actionKeyField, key);
      } else sent = { ...fields, [actionKeyField]: key };
      lastSent.current = { fields: sent, action: options.action, done, inline };
      send();
    },
  };
}

/**
 * The schema's first refusal of these fields, as the server would answer it; null when they
 * pass. For a form that checks before it asks for a confirmation; `submit` checks by itself.
 */
export function checkFields(schema: z.ZodType, fields: Record<string, string> | FormData): ActionAnswer | null {
  const values =
    fields instanceof FormData
      ? Object.fromEntries([...fields].filter((entry): entry is [string, string] => typeof entry[1] === "string"))
      : fields;
  const result = schema.safeParse(values);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  return {
    ok: false,
    message: issue?.message ?? "Invalid request.",
    ...(typeof field === "string" ? { field } : {}),
  };
}
