import { useId, useState } from "react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { kindLabels, messageKinds, type MessageKind } from "~/messages/kinds";
import { ErrorLine, Field } from "~/ui/form";
import { messageBody, primaryButton, secondaryButton } from "~/ui/styles";
import { LostChange } from "~/ui/LostChange";
import { useAction, type ActionAnswer, type ActionHandle } from "~/ui/use-action";

/** Where a send goes: the open card's learner, the ticked learners, or every learner matching the search. */
export type Audience = "open" | "ticked" | "matching";

export type Texts = Record<MessageKind, string>;

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

/**
 * The three text areas and their Send buttons. Send Notice (Task, Certificate) goes to one
 * learner (the open card's, as the spec has it); in the workspace, Send to selected goes to the
 * ticked learners and Send to all matching to the whole search.
 */
export function ComposePanel({
  texts,
  onText,
  intro,
  tickedCount = 0,
  toMatching = false,
  busy,
  preview,
  onSend,
}: {
  texts: Texts;
  onText: (kind: MessageKind, text: string) => void;
  /** Who the buttons reach, in words. */
  intro?: React.ReactNode;
  tickedCount?: number;
  /** Offer Send to all matching (the workspace's search). */
  toMatching?: boolean;
  busy: boolean;
  preview: Preview;
  onSend: (kind: MessageKind, audience: Audience) => void;
}) {
  const ids = useId();
  return (
    <div className="space-y-5">
      {intro && <div className="text-sm text-slate-700">{intro}</div>}
      {messageKinds.map((kind) => {
        const { title, singular } = kindLabels[kind];
        const shown = preview.of(kind, texts[kind]);
        return (
          <div key={kind}>
            <Field
              multiline
              id={`${ids}-${kind}`}
              label={title}
              value={texts[kind]}
              onChange={(e) => onText(kind, e.target.value)}
              aria-describedby={`${ids}-${kind}-hint`}
            />
            <p id={`${ids}-${kind}-hint`} className="mt-1 text-xs text-slate-700">
              A blank line starts a new paragraph.
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <button type="button" className={primaryButton} disabled={busy} onClick={() => onSend(kind, "open")}>
                Send {title}
              </button>
              {tickedCount > 0 && (
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={busy}
                  onClick={() => onSend(kind, "ticked")}
                >
                  Send to selected ({tickedCount})<span className="sr-only"> learners ({singular})</span>
                </button>
              )}
              {toMatching && (
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={busy}
                  onClick={() => onSend(kind, "matching")}
                >
                  Send to all matching
                  <span className="sr-only"> learners ({singular})</span>
                </button>
              )}
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
      })}
    </div>
  );
}
