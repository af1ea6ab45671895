import { useState } from "react";
import { kindLabels, type MessageKind } from "~/messages/kinds";
import { useToast } from "~/ui/toast";
import type { ActionAnswer, ActionHandle } from "~/ui/use-action";
import type { Audience } from "./ComposePanel";
import { audienceWords, namesInWords } from "~/learners/audience";
import { filterFields, type LearnerFilter } from "~/learners/learner-filter";
import { staffMessages } from "~/learners/staff-messages";
import type { LearnerSummary } from "./staff-types";
import type { Compose } from "./use-compose";
import { useExactCount } from "~/ui/use-exact-count";
import type { TickedLearners } from "./use-ticked-learners";

/** A send to several learners answers with the new count, or the ticked learners who are gone. */
export type SendAnswer = ActionAnswer & { count?: number; gone?: string[] };

type Confirm =
  /** `count` is null while a list too long to count on each page is counted for the confirmation. */
  | { type: "bulk"; kind: MessageKind; count: number | null }
  | { type: "ticked"; kind: MessageKind }
  | { type: "clear"; kind: MessageKind; learner: LearnerSummary };

/**
 * The workspace's sends: to the open card's learner at once; to the ticked learners or every
 * learner matching the search after a confirmation that names them and shows the text as
 * learners will see it; and (admins) clearing a learner's messages of one kind after a Yes.
 */
export function useWorkspaceSends({
  action,
  compose,
  selection,
  filter,
  names,
  total,
  openLearnerId,
  onSent,
}: {
  action: ActionHandle<SendAnswer>;
  compose: Compose;
  selection: TickedLearners;
  filter: LearnerFilter;
  /** What the audience words name beside the filter (the batch's name). */
  names: { batch?: string };
  /** How many learners match, or null past the list's cap. */
  total: number | null;
  openLearnerId: string | undefined;
  onSent: () => void;
}) {
  const toast = useToast();
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [error, setError] = useState("");
  const exact = useExactCount(filter);
  const { texts, preview } = compose;
  const { ticked } = selection;

  const open = (next: Confirm) => {
    setError("");
    setConfirm(next);
    if (next.type === "clear") return;
    toast.clear();
    preview.request(next.kind, texts[next.kind]);
  };

  const send = (kind: MessageKind, audience: Audience) => {
    if (audience === "open") return compose.sendTo(openLearnerId, kind, onSent);
    if (audience === "ticked") {
      if (ticked.size === 0) return toast.error(staffMessages.selectSome);
      if (compose.hasText(kind)) open({ type: "ticked", kind });
      return;
    }
    if (!compose.hasText(kind)) return;
    if (total === 0) return toast.error("No learners match the search and filter.");
    open({ type: "bulk", kind, count: total });
    if (total === null) exact.request();
  };

  // A bulk confirmation opened on an uncounted list shows the count once it is known.
  const bulkCount = confirm?.type !== "bulk" ? null : (confirm.count ?? exact.count);
  /** A send's confirmation shows the text as learners will see it; Yes waits for it. */
  const shown = confirm && confirm.type !== "clear" ? preview.of(confirm.kind, texts[confirm.kind]) : null;
  const previewReady = shown !== null && !shown.loading && shown.answer.ok;

  const sent = (kind: MessageKind, message: string) => {
    setConfirm(null);
    compose.setText(kind, "");
    onSent();
    toast.success(message);
    compose.showResult(message);
  };

  const yes = () => {
    if (!confirm) return;
    if (confirm.type === "clear") {
      const fields = { intent: "clear" as const, learnerId: confirm.learner.id, kind: confirm.kind };
      return action.submit(fields, { onDone: () => setConfirm(null) });
    }
    const { kind } = confirm;
    if (confirm.type === "ticked") {
      const learnerIds = [...ticked.keys()].join(",");
      const fields = { intent: "send-selected" as const, learnerIds, kind, html: texts[kind] };
      return action.submit(fields, {
        inline: true,
        onDone: (answer) => {
          if (answer.ok) return sent(kind, answer.message);
          if (answer.gone) selection.drop(answer.gone);
          setError(answer.message);
        },
      });
    }
    if (bulkCount === null) return;
    const expectedCount = String(bulkCount);
    const fields = { intent: "bulk-send" as const, ...filterFields(filter), kind, html: texts[kind], expectedCount };
    action.submit(fields, {
      inline: true,
      onDone: (answer) => {
        if (!answer.ok && answer.count !== undefined) {
          setConfirm({ ...confirm, count: answer.count });
          return setError(answer.message);
        }
        if (!answer.ok) {
          setConfirm(null);
          return toast.error(answer.message);
        }
        sent(kind, answer.message);
      },
    });
  };

  return {
    send,
    /** Asks before clearing every message of a kind of a learner (admins). */
    askClear: (kind: MessageKind, learner: LearnerSummary) => open({ type: "clear", kind, learner }),
    /** The confirmation's words, its preview and its Yes. */
    dialog: confirm && {
      title: confirmTitle(confirm),
      description: describe(confirm, bulkCount, filter, ticked, names),
      preview: confirm.type === "clear" ? null : { shown, label: `The ${kindLabels[confirm.kind].singular} to send` },
      danger: confirm.type === "clear",
      labels: buttonLabels(confirm, bulkCount, ticked.size),
      busy:
        action.busy || (confirm.type === "bulk" && bulkCount === null) || (confirm.type !== "clear" && !previewReady),
      error,
      yes,
      close: () => setConfirm(null),
    },
  };
}

function confirmTitle(confirm: Confirm): string {
  const { singular, plural } = kindLabels[confirm.kind];
  if (confirm.type === "bulk") return `Send this ${singular} to all matching learners?`;
  if (confirm.type === "ticked") return `Send this ${singular} to the selected learners?`;
  return `Clear ${plural}?`;
}

/** A send's buttons say what they do; clearing keeps Yes / No. */
function buttonLabels(confirm: Confirm, bulkCount: number | null, tickedCount: number) {
  if (confirm.type === "clear") return undefined;
  const count = confirm.type === "bulk" ? bulkCount : tickedCount;
  const yes = count === null ? "Send" : `Send to ${count} ${count === 1 ? "learner" : "learners"}`;
  return { yes, no: "Cancel" };
}

function describe(
  confirm: Confirm,
  bulkCount: number | null,
  filter: LearnerFilter,
  ticked: ReadonlyMap<string, string>,
  names: { batch?: string },
): string {
  if (confirm.type === "bulk") {
    return bulkCount === null ? "Counting the matching learners…" : `To ${audienceWords(filter, bulkCount, names)}.`;
  }
  if (confirm.type === "ticked") {
    const learners = ticked.size === 1 ? "learner" : "learners";
    return `To ${ticked.size} selected ${learners}: ${namesInWords([...ticked.values()])}.`;
  }
  return `All ${kindLabels[confirm.kind].plural} of ${confirm.learner.username} will be deleted.`;
}
