import { useState } from "react";
import { messageKinds, perKind, type MessageKind } from "~/messages/kinds";
import { useToast } from "~/ui/toast";
import type { ActionHandle } from "~/ui/use-action";
import { readDraft, useDraftsReadable, writeDraft } from "~/ui/use-draft";
import { usePreview, type SendResult, type Texts } from "./ComposePanel";
import { staffMessages } from "~/learners/staff-messages";

const noTexts: Texts = perKind(messageKinds, () => "");

/**
 * What staff are writing to learners (a notice, a task, a certificate note) and sending it to
 * one learner; the workspace's and a learner page's composer alike. `action` is the page's
 * action hook, so one request at a time goes from the page. What is typed is kept in this browser
 * until it is sent (`draftKey`: per staff member and per learner or audience), across reloads.
 */
export function useCompose(action: ActionHandle, draftKey: string) {
  const toast = useToast();
  const [texts, setTexts] = useState<Texts>(noTexts);
  const preview = usePreview();
  const readable = useDraftsReadable();
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  /** What the last send answered; `n` makes the same words again a new result (focus moves to it). */
  const [result, setResult] = useState<SendResult | null>(null);
  // Read once the page is hydrated, so the server's page and the browser's agree.
  if (readable && loadedFor !== draftKey) {
    setLoadedFor(draftKey);
    setTexts(perKind(messageKinds, (kind) => readDraft(`${draftKey}:${kind}`)));
  }
  const setText = (kind: MessageKind, text: string) => {
    setTexts((all) => ({ ...all, [kind]: text }));
    if (text) setResult(null);
    if (loadedFor === draftKey) writeDraft(`${draftKey}:${kind}`, text);
  };

  /** Whether there is something to send; says what is missing when there isn't. */
  const hasText = (kind: MessageKind) => {
    if (texts[kind].trim()) return true;
    toast.error(staffMessages.empty(kind));
    return false;
  };

  return {
    texts,
    setText,
    hasText,
    preview,
    result,
    /** Shows what a send answered where the composer is, and moves focus to it. */
    showResult: (text: string) => setResult((last) => ({ text, n: (last?.n ?? 0) + 1 })),
    /** Sends one kind's text to one learner; the text is emptied once it is sent. */
    sendTo(learnerId: string | undefined, kind: MessageKind, onSent?: () => void) {
      if (!learnerId) return toast.error(staffMessages.selectLearner);
      if (!hasText(kind)) return;
      action.submit(
        { intent: "send", learnerId, kind, html: texts[kind] },
        {
          onDone: (answer) => {
            if (!answer.ok) return;
            setText(kind, "");
            setResult((last) => ({ text: answer.message, n: (last?.n ?? 0) + 1 }));
            onSent?.();
          },
        },
      );
    },
  };
}

export type Compose = ReturnType<typeof useCompose>;
