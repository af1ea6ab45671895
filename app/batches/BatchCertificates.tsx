import { useId, useState } from "react";
import { useRevalidator } from "react-router";
import { checkFields, useAction, type ActionAnswer } from "~/ui/use-action";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { LostChange } from "~/ui/LostChange";
import { useToast } from "~/ui/toast";
import { batchCertificateMessages, certificateSchema, issueBatchCertificatesSchema } from "~/documents/document-fields";
import { emptyCertificate, type CertificateDraft } from "~/documents/document-inputs";
import { CertificateForm, SignatoryNeeded } from "~/documents/IssueForms";
import type { BatchPageData } from "./batch-page.server";

const issueLabel = "Issue certificates to learners of this batch who have all assignments accepted";

const learners = (count: number) => `${count.toLocaleString("en-IN")} ${count === 1 ? "learner" : "learners"}`;

/** What the page says of the batch's completers before anyone asks to issue. */
function summary(completers: BatchPageData["completers"], assignments: number): string {
  if (assignments === 0) return "This batch has no assignments yet, so no learner has completed it.";
  if (completers.length === 0) return batchCertificateMessages.noneQualify;
  const holding = completers.filter((one) => one.certificate !== null).length;
  const have = `${learners(completers.length)} ${completers.length === 1 ? "has" : "have"} all assignments accepted`;
  return holding === 0
    ? `${have}.`
    : `${have}; ${holding} of them already ${holding === 1 ? "has" : "have"} this batch's certificate.`;
}

/**
 * The batch's certificate for the learners who have every one of its assignments accepted: the
 * certificate's fields, then a confirmation naming exactly who gets it (and who already has it,
 * and so does not get a second), then one job that issues them.
 */
export function BatchCertificates({ data }: { data: BatchPageData }) {
  const ids = useId();
  const toast = useToast();
  const revalidator = useRevalidator();
  const action = useAction<ActionAnswer & { count?: number }>();
  const [draft, setDraft] = useState<CertificateDraft>(() => ({
    ...emptyCertificate(data.today),
    title: data.batch.course,
  }));
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState("");
  const due = data.completers.filter((one) => one.certificate === null);
  const holding = data.completers.filter((one) => one.certificate !== null);

  const ask = () => {
    const refusal = checkFields(certificateSchema, draft);
    if (refusal) return toast.error(refusal.message);
    if (due.length === 0) {
      return toast.error(
        data.completers.length === 0 ? batchCertificateMessages.noneQualify : batchCertificateMessages.allHaveIt,
      );
    }
    toast.clear();
    setError("");
    setConfirming(true);
  };

  const yes = () =>
    action.submit(
      {
        intent: "issue-batch-certificates",
        batchId: data.batch.id,
        learnerIds: due.map((one) => one.learnerId).join(","),
        ...draft,
      },
      {
        inline: true,
        schema: issueBatchCertificatesSchema,
        onDone: (answer) => {
          if (!answer.ok) {
            setError(answer.message);
            // The list may have changed (a review, another staff member's issue): show it as it is now.
            return void revalidator.revalidate();
          }
          setConfirming(false);
          toast.success(answer.message);
        },
      },
    );

  return (
    <section aria-labelledby={`${ids}-heading`} className="mt-8">
      <h2 id={`${ids}-heading`} className="text-2xl font-bold text-slate-900">
        Certificates
      </h2>
      <p className="mt-2 text-slate-700" data-testid="batch-completers-summary">
        {summary(data.completers, data.assignments.length)}
      </p>
      <div className="mt-3 space-y-3">
        {!data.signatorySet && <SignatoryNeeded />}
        <CertificateForm
          draft={draft}
          onDraft={setDraft}
          busy={action.busy}
          actions={[{ label: issueLabel, primary: true, onClick: ask }]}
        />
        <LostChange action={action} />
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => !next && setConfirming(false)}
        title={`Issue this certificate to ${learners(due.length)}?`}
        description={`"${draft.title.trim()}" goes to ${due.length === 1 ? "this learner" : `these ${learners(due.length)}`} of ${data.batch.name}, who ${due.length === 1 ? "has" : "have"} all assignments accepted. Each gets a PDF by email.`}
        onYes={yes}
        busy={action.busy || due.length === 0}
        error={error}
        action={action}
        labels={{ yes: `Issue to ${learners(due.length)}`, no: "Cancel" }}
      >
        <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-900" data-testid="batch-certificate-list">
          {due.map((one) => (
            <li key={one.learnerId}>
              {one.name} <span className="text-slate-700">({one.email})</span>
            </li>
          ))}
        </ul>
        {holding.length > 0 && (
          <>
            <p className="mt-3 text-slate-700">Not issued again: they already have this batch&apos;s certificate.</p>
            <ul className="mt-1 list-disc space-y-1 pl-5 text-slate-700" data-testid="batch-certificate-holders">
              {holding.map((one) => (
                <li key={one.learnerId}>
                  {one.name}, {one.certificate}
                </li>
              ))}
            </ul>
          </>
        )}
      </ConfirmDialog>
    </section>
  );
}
