import { useState } from "react";
import { useExactCount } from "~/ui/use-exact-count";
import { audienceWords, namesInWords } from "~/learners/audience";
import { filterFields, type LearnerFilter } from "~/learners/learner-filter";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { useToast } from "~/ui/toast";
import { checkFields, useAction, type ActionAnswer } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";
import { certificateSchema, issueCertificateSchema, issueCertificatesMatchingSchema } from "./document-fields";
import { emptyCertificate, type CertificateDraft } from "./document-inputs";
import { CertificateForm, SignatoryNeeded } from "./IssueForms";

/** A refused issue to several learners answers with the new count, or the ticked learners who are gone. */
type IssueAnswer = ActionAnswer & { count?: number; gone?: string[] };

type Audience = "open" | "ticked" | "matching";

/**
 * The staff workspace's certificate form: issue to the open card's learner, to the ticked
 * learners or to every learner matching the search, the last two after a confirmation that
 * names who (as a send to them does).
 */
export function WorkspaceCertificates({
  today,
  open,
  ticked,
  filter,
  names,
  total,
  onGone,
  signatorySet,
}: {
  today: string;
  /** The open card's learner. */
  open: { id: string; username: string } | null;
  /** The ticked learners: id to name. */
  ticked: ReadonlyMap<string, string>;
  filter: LearnerFilter;
  /** What the audience words name beside the filter (the batch's name). */
  names: { batch?: string };
  /** Matching learners, or null past the list's cap (counted exactly for the confirmation). */
  total: number | null;
  /** Ticked learners who no longer exist, to drop from the selection. */
  onGone: (ids: string[]) => void;
  /** False until an admin sets who signs: issuing is refused until then. */
  signatorySet: boolean;
}) {
  const toast = useToast();
  const action = useAction<IssueAnswer>();
  const [draft, setDraft] = useState<CertificateDraft>(emptyCertificate(today));
  const [confirm, setConfirm] = useState<{ audience: "ticked" | "matching"; count: number | null } | null>(null);
  const [confirmError, setConfirmError] = useState("");
  const exact = useExactCount(filter);

  const issued = (message: string) => {
    setConfirm(null);
    setDraft(emptyCertificate(today));
    toast.success(message);
  };

  const ask = (audience: Audience) => {
    // The certificate's own fields first (the server's rules), then who it is for.
    const refusal = checkFields(certificateSchema, draft);
    if (refusal) return toast.error(refusal.message);
    if (audience === "open") {
      if (!open) return toast.error("Select a learner first.");
      return action.submit(
        { intent: "issue-certificate", learnerIds: open.id, ...draft },
        {
          inline: true,
          schema: issueCertificateSchema,
          onDone: (answer) => (answer.ok ? issued(answer.message) : toast.error(answer.message)),
        },
      );
    }
    if (audience === "ticked" && ticked.size === 0) return toast.error("Select at least one learner.");
    if (audience === "matching" && total === 0) return toast.error("No learners match the search and filter.");
    toast.clear();
    setConfirmError("");
    setConfirm({ audience, count: audience === "ticked" ? ticked.size : total });
    if (audience === "matching" && total === null) exact.request();
  };

  const count = confirm?.count ?? exact.count;

  const yes = () => {
    if (!confirm || count === null) return;
    const onDone = (answer: IssueAnswer) => {
      if (answer.ok) return issued(answer.message);
      if (answer.gone) onGone(answer.gone);
      if (answer.count !== undefined && confirm.audience === "matching")
        setConfirm({ ...confirm, count: answer.count });
      setConfirmError(answer.message);
    };
    const toTicked = confirm.audience === "ticked";
    const matching = { ...filterFields(filter), expectedCount: String(count) };
    const fields = toTicked
      ? { intent: "issue-certificate" as const, learnerIds: [...ticked.keys()].join(","), ...draft }
      : { intent: "issue-certificates-matching" as const, ...matching, ...draft };
    const schema = toTicked ? issueCertificateSchema : issueCertificatesMatchingSchema;
    action.submit(fields, { inline: true, schema, onDone });
  };

  return (
    <div className="mt-8 space-y-4 border-t border-slate-200 pt-6">
      {!signatorySet && <SignatoryNeeded />}
      <CertificateForm
        draft={draft}
        onDraft={setDraft}
        busy={action.busy}
        actions={[
          {
            label: (
              <>
                Issue certificate<span className="sr-only"> to the open card&apos;s learner</span>
              </>
            ),
            primary: true,
            onClick: () => ask("open"),
          },
          ...(ticked.size > 0 ? [{ label: `Issue to selected (${ticked.size})`, onClick: () => ask("ticked") }] : []),
          { label: "Issue to all matching", onClick: () => ask("matching") },
        ]}
      />
      <LostChange action={action} />
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(next) => !next && setConfirm(null)}
        title={
          confirm?.audience === "ticked"
            ? "Issue this certificate to the selected learners?"
            : "Issue this certificate to all matching learners?"
        }
        description={confirm ? confirmWords(confirm.audience, draft.title.trim(), ticked, filter, count, names) : ""}
        onYes={yes}
        busy={action.busy || count === null}
        error={confirmError}
        action={action}
      />
    </div>
  );
}

/** Who a confirmed issue reaches, in words (the count is null while it is being counted). */
function confirmWords(
  audience: "ticked" | "matching",
  title: string,
  ticked: ReadonlyMap<string, string>,
  filter: LearnerFilter,
  count: number | null,
  names: { batch?: string },
): string {
  if (audience === "ticked") {
    const learners = ticked.size === 1 ? "learner" : "learners";
    return `"${title}" to ${ticked.size} selected ${learners}: ${namesInWords([...ticked.values()])}. Each gets a PDF by email.`;
  }
  if (count === null) return "Counting the matching learners…";
  return `"${title}" to ${audienceWords(filter, count, names)}. Each gets a PDF by email.`;
}
