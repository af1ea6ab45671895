import { ActionForm } from "~/ui/ActionForm";
import { useAction } from "~/ui/use-action";
import { primaryButton } from "~/ui/styles";
import { day, type Enrolment, type Viewer } from "./placement-view";

/** A pay-after-placement agreement's text, whether it was accepted, and what it decided about fees. */
export function AgreementSection({
  agreement,
  enrolmentId,
  viewer,
}: {
  agreement: NonNullable<Enrolment["agreement"]>;
  enrolmentId: string;
  viewer: Viewer;
}) {
  // Held here, where it outlives the form: accepting replaces the form with the date it was
  // accepted, and the page's new data can arrive in the same render as the answer.
  const accept = useAction();
  return (
    <div className="mt-6">
      <h4 className="text-lg font-bold text-slate-900">Agreement</h4>
      <div className="mt-2 space-y-2 rounded-md bg-slate-50 p-4 text-sm whitespace-pre-line text-slate-800">
        {agreement.text}
      </div>
      {agreement.acceptedAt ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="agreement-accepted">
          Accepted on {day(agreement.acceptedAt)}.
        </p>
      ) : viewer === "learner" ? (
        <ActionForm intent="accept-agreement" className="mt-3" label="Accept the agreement" submitWith={accept}>
          <input type="hidden" name="enrolmentId" value={enrolmentId} />
          <button type="submit" className={primaryButton}>
            I accept this agreement
          </button>
        </ActionForm>
      ) : (
        <p className="mt-2 text-sm text-slate-700">Not accepted yet.</p>
      )}
      {agreement.decisionText && (
        <p className="mt-3 font-semibold text-slate-900" data-testid="fee-decision">
          {agreement.decisionText}
        </p>
      )}
    </div>
  );
}
