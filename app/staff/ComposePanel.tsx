import { useEffect, useId, useRef, useState } from "react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { kindLabels, messageKinds, type MessageKind } from "~/messages/kinds";
import { controlClass, ErrorLine, labelClass } from "~/ui/form";
import { messageBody, primaryButton } from "~/ui/styles";
import { LostChange } from "~/ui/LostChange";
import { useAction, type ActionAnswer, type ActionHandle } from "~/ui/use-action";

/** Where a send goes: the open card's learner, the ticked learners, or every learner matching the search. */
export type Audience = "open" | "ticked" | "matching";

export type Texts = Record<MessageKind, string>;

/** What a send answered, shown where the composer is; `n` makes the same words again a new result. */
export interface SendResult {
  text: string;
  n: number;
}

type PreviewAnswer = ActionAnswer & { html?: string };

type Asked = { kind: MessageKind; text: string };

/**
 * Asks the server how a text will look to learners: formatted and sanitized exactly as a send
 * stores it. The answer belongs to the last text asked about; a changed text has none.
 */
export function usePreview() {
  const action = useAction<PreviewAnswer>();
  const [asked, setAsked] = useState<Asked | null>(null);
  const [answered, setAnswered] = useState<{ asked: Asked; answer: PreviewAnswer } | null>(null);
  return {
    /** The preview's own request: offline, its box says so with Retry. */
    action,
    request(kind: MessageKind, text: string) {
      const question = { kind, text };
      setAsked(question);
      // A preview changes nothing: its answer is shown by the text, and the toast stays.
      action.submit(
        { intent: "preview", kind, html: text },
        { inline: true, quiet: true, onDone: (answer) => setAnswered({ asked: question, answer }) },
      );
    },
    /** The preview of this text: loading, the HTML, or why it can't be sent. */
    of(kind: MessageKind, text: string): { loading: true } | { loading: false; answer: PreviewAnswer } | null {
      if (asked?.kind !== kind || asked.text !== text) return null;
      if (answered?.asked !== asked) return { loading: true };
      return { loading: false, answer: answered.answer };
    },
  };
}

export type Preview = ReturnType<typeof usePreview>;

/** For a staff route's `shouldRevalidate`: a preview changes nothing, so the page is not read again. */
export function revalidateUnlessPreview({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get("intent") === "preview" ? false : defaultShouldRevalidate;
}

/** A text as learners will see it, or why it would be refused, or that it could not be asked for. */
export function PreviewBox({
  preview,
  label,
  action,
}: {
  preview: ReturnType<Preview["of"]>;
  label: string;
  action: ActionHandle;
}) {
  if (!preview) return null;
  if (preview.loading) {
    return (
      <>
        {!action.lost && <p className="mt-2 text-sm text-slate-700">Preparing the preview…</p>}
        <LostChange action={action} className="mt-2" />
      </>
    );
  }
  if (!preview.answer.ok) return <ErrorLine message={preview.answer.message} className="mt-2" />;
  return (
    <section aria-label={label} className="mt-2 rounded-md border border-slate-300 bg-slate-50 p-3">
      <div className="text-xs font-semibold tracking-wide text-slate-700 uppercase">As learners will see it</div>
      <div
        className={`${messageBody} mt-1 max-h-60 overflow-y-auto break-words`}
        dangerouslySetInnerHTML={{ __html: preview.answer.html ?? "" }}
      />
    </section>
  );
}

/** What the composer's kind choice calls each kind (the certificate here is a text note, not the PDF). */
const composerKindNames: Record<MessageKind, string> = {
  notice: "Notice",
  task: "Task",
  certificate: "Certificate note",
};

/** One audience the composer may send to, and who it is in words ("Asha", "3 selected", "400 matching"). */
export interface AudienceOption {
  audience: Audience;
  words: string;
}

/**
 * Which audience a send goes to: the one chosen while it is still offered, else the ticked
 * learners, else the open card's learner. All matching is only ever chosen, never assumed.
 */
function effectiveAudience(options: AudienceOption[], chosen: Audience | null): AudienceOption | null {
  const offered = (audience: Audience | null) => options.find((option) => option.audience === audience) ?? null;
  return offered(chosen) ?? offered("ticked") ?? offered("open");
}

/**
 * The one composer: a kind (Notice, Task, Certificate note), its text, and who receives it.
 * The audience line names them ("To Asha", "To 3 selected", "To 400 matching"); Send says the
 * kind and the audience (the spec's Send Notice, Send Task, Send Certificate, then to whom) and
 * is disabled while there is no one to send to. Each kind's text is kept while another is shown.
 */
export function ComposePanel({
  texts,
  onText,
  audiences,
  noAudience = "No one yet: open a learner or tick learners.",
  busy,
  preview,
  onSend,
}: {
  texts: Texts;
  onText: (kind: MessageKind, text: string) => void;
  /** Who a send may go to, in the order offered. */
  audiences: AudienceOption[];
  /** What the audience line says when there is no one to send to. */
  noAudience?: string;
  busy: boolean;
  preview: Preview;
  onSend: (kind: MessageKind, audience: Audience) => void;
}) {
  const ids = useId();
  const [kind, setKind] = useState<MessageKind>("notice");
  const [chosen, setChosen] = useState<Audience | null>(null);
  const target = effectiveAudience(audiences, chosen);
  const { title, singular } = kindLabels[kind];
  const shown = preview.of(kind, texts[kind]);
  return (
    <div className="space-y-4">
      <div>
        <label htmlFor={`${ids}-kind`} className={labelClass}>
          Kind
        </label>
        <select
          id={`${ids}-kind`}
          className={controlClass}
          value={kind}
          onChange={(e) => setKind(e.target.value as MessageKind)}
        >
          {messageKinds.map((option) => (
            <option key={option} value={option}>
              {composerKindNames[option]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-text`} className={labelClass}>
          {composerKindNames[kind]}
        </label>
        <textarea
          id={`${ids}-text`}
          className={`${controlClass} h-32 text-sm`}
          value={texts[kind]}
          onChange={(e) => onText(kind, e.target.value)}
          aria-describedby={`${ids}-hint`}
        />
        <p id={`${ids}-hint`} className="mt-1 text-xs text-slate-700">
          A blank line starts a new paragraph.
        </p>
      </div>
      <AudienceLine ids={ids} audiences={audiences} target={target} noAudience={noAudience} onChoose={setChosen} />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={primaryButton}
          disabled={busy || target === null}
          aria-describedby={`${ids}-audience`}
          onClick={() => {
            if (!target) return;
            onSend(kind, target.audience);
            setChosen(null);
          }}
        >
          Send {title}
          {target && ` to ${target.words}`}
        </button>
        <button
          type="button"
          className="rounded-md px-3 py-2.5 font-semibold text-blue-800 underline hover:bg-blue-50 disabled:text-slate-500 disabled:no-underline disabled:hover:bg-transparent"
          disabled={!texts[kind].trim() || shown !== null}
          onClick={() => preview.request(kind, texts[kind])}
        >
          Preview<span className="sr-only"> {singular}</span>
        </button>
      </div>
      <PreviewBox preview={shown} label={`Preview of the ${singular}`} action={preview.action} />
    </div>
  );
}

/** Who receives a send: one line when there is one choice (or none), a choice of audiences otherwise. */
function AudienceLine({
  ids,
  audiences,
  target,
  noAudience,
  onChoose,
}: {
  ids: string;
  audiences: AudienceOption[];
  target: AudienceOption | null;
  noAudience: string;
  onChoose: (audience: Audience) => void;
}) {
  // One audience that is taken without asking (the open learner, the ticked ones): a line says it.
  // All matching is never assumed, so it is always a choice.
  const only = audiences.length === 1 ? audiences[0] : undefined;
  if (audiences.length === 0 || (only && only.audience !== "matching")) {
    return (
      <p id={`${ids}-audience`} className="text-sm font-semibold text-slate-900" data-testid="audience-line">
        {target ? `To ${target.words}` : noAudience}
      </p>
    );
  }
  return (
    <fieldset>
      <legend className={labelClass}>Send to</legend>
      <div className="mt-1 space-y-1">
        {audiences.map((option) => (
          <label key={option.audience} className="flex items-center gap-2 text-sm text-slate-900">
            <input
              type="radio"
              name={`${ids}-audience-choice`}
              className="h-4 w-4"
              checked={target?.audience === option.audience}
              onChange={() => onChoose(option.audience)}
            />
            To {option.words}
          </label>
        ))}
      </div>
      <p id={`${ids}-audience`} className="mt-2 text-sm font-semibold text-slate-900" data-testid="audience-line">
        {target ? `To ${target.words}` : noAudience}
      </p>
    </fieldset>
  );
}

/**
 * What the last send answered, where the person was writing: focus moves here after a send (to
 * whichever copy is on screen: the side panel's, or the phone's bar below the list).
 */
export function SendResultLine({
  result,
  className = "",
  ref,
}: {
  result: SendResult | null;
  className?: string;
  ref?: React.Ref<HTMLParagraphElement>;
}) {
  const own = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const line = own.current;
    if (result && line && line.offsetParent !== null) line.focus();
  }, [result]);
  if (!result) return null;
  return (
    <p
      ref={(node) => {
        own.current = node;
        if (typeof ref === "function") ref(node);
        else if (ref) ref.current = node;
      }}
      tabIndex={-1}
      className={`text-sm font-semibold text-green-800 ${className}`}
      data-testid="send-result"
    >
      {result.text}
    </p>
  );
}
