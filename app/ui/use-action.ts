import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { useToast } from "./toast";

/** What every action answers: a message for the toast (empty: nothing to say). */
export interface ActionAnswer {
  ok: boolean;
  message: string;
}

export type ActionHandle<T extends ActionAnswer = ActionAnswer> = ReturnType<typeof useAction<T>>;

/**
 * Submits an `intent` to a route's action in place (no navigation) and shows the answer in the
 * toast region. The page's loaders run again after a success, so what it shows is the server's.
 */
export function useAction<T extends ActionAnswer = ActionAnswer>() {
  const fetcher = useFetcher<T>();
  const toast = useToast();
  const onDone = useRef<{ done: (answer: T) => void; inline: boolean } | null>(null);
  const { state, data } = fetcher;

  useEffect(() => {
    // The answer is there once the action has run ("loading" is the page's data reloading after
    // it): told now, before that reload can remove the component that asked (a role change).
    if (state === "submitting" || !data || !onDone.current) return;
    const { done, inline } = onDone.current;
    onDone.current = null;
    if (!inline) {
      if (!data.ok) toast.error(data.message);
      else if (data.message) toast.success(data.message);
    }
    done(data as T);
  }, [state, data, toast]);

  return {
    busy: state !== "idle",
    /**
     * `inline`: the caller shows the answer next to its form instead of in the toast region.
     * A FormData (a form with a file) is sent as multipart.
     */
    submit(
      fields: Record<string, string> | FormData,
      options: { action?: string; inline?: boolean; onDone?: (answer: T) => void } = {},
    ) {
      toast.clear();
      onDone.current = { done: options.onDone ?? (() => {}), inline: options.inline ?? false };
      const encType = fields instanceof FormData ? "multipart/form-data" : undefined;
      void fetcher.submit(fields, { method: "post", action: options.action, encType });
    },
  };
}
