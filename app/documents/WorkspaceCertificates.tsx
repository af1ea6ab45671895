import { useState } from "react";
import { useExactCount } from "~/staff/use-exact-count";
import { audienceWords, namesInWords, type LearnerFilter } from "~/staff/staff-types";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { useToast } from "~/ui/toast";
import { checkFields, useAction, type ActionAnswer } from "~/ui/use-action";
import { certificateSchema, issueCertificateSchema, issueCertificatesMatchingSchema } from "./document-fields";
import { emptyCertificate, type CertificateDraft } from "./document-inputs";
import { CertificateForm } from "./IssueForms";

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
  total,
  onGone,
}: {
  today: string;
  /** The open card's learner. */
  open: { id: string; username: string } | null;
  /** The ticked learners: id to name. */
  ticked: ReadonlyMap<string, string>;
  filter: LearnerFilter;
  /** Matching learners, or null past the list's cap (counted exactly for the confirmation). */
  total: number | null;
  /** Ticked learners who no longer exist, to drop from the selection. */
  onGone: (ids: string[]) => void;
}) {
  const toast = useToast();
  const action = useAction<ActionAnswer & { count?: number; gone?: string[] }>();
  const [draft, setDraft] = useState<CertificateDraft>(emptyCertificate(today));
  const [confirm, setConfirm] = useState<{ audience: "ticked" | "matching"; count: number | null } | null>(null);
  const [confirmError, setConfirmError] = useState("");
  const exact = useExactCount(filter);

  const fields = () => ({ ...draft }) as Record<string, string>;
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
        { intent: "issue-certificate", learnerIds: open.id, ...fields() },
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
    if (audience === "matching" && total === null) {
      exact.request();
    }
  };

  const count = confirm?.count ?? exact.count;

  const yes = () => {
    if (!confirm || count === null) return;
    const onDone = (answer: ActionAnswer & { count?: number; gone?: string[] }) => {
      if (answer.ok) return issued(answer.message);
      if (answer.gone) onGone(answer.gone);
      if (answer.count !== undefined && confirm.audience === "matching")
        setConfirm({ ...confirm, count: answer.count });
      setConfirmError(answer.message);
    };
    if (confirm.audience === "ticked") {
      action.submit(
        { intent: "issue-certificate", learnerIds: [...ticked.keys()].join(","), ...fields() },
        { inline: true, schema: issueCertificateSchema, onDone },
      );
    } else {
      action.submit(
        {
          intent: "issue-certificates-matching",
          search: filter.search,
          course: filter.course,
          expectedCount: String(count),
          ...fields(),
        },
        { inline: true, schema: issueCertificatesMatchingSchema, onDone },
      );
    }
  };

  return (
    <div className="mt-8 border-t border-slate-200 pt-6">
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
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(next) => !next && setConfirm(null)}
        title={
          confirm?.audience === "ticked"
            ? "Issue this certificate to the selected learners?"
            : "Issue this certificate to all matching learners?"
        }
        description={
          !confirm
            ? ""
            : confirm.audience === "ticked"
              ? `"${draft.title.trim()}" to ${ticked.size} selected ${ticked.size === 1 ? "learner" : "learners"}: ${namesInWords([...ticked.values()])}. Each gets a PDF by email.`
              : count === null
                ? "Counting the matching learners…"
                : `"${draft.title.trim()}" to ${audienceWords(filter, count)}. Each gets a PDF by email.`
        }
        onYes={yes}
        busy={action.busy || count === null}
        error={confirmError}
      />
    </div>
  );
}
