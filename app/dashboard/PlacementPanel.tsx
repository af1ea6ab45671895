import { Link } from "react-router";
import type { DashboardPlacement } from "~/placement/learner-placement.server";
import { ActionForm } from "~/ui/ActionForm";
import { useAction } from "~/ui/use-action";
import { card, primaryButton, secondaryButton } from "~/ui/styles";
import { formatDateTime } from "~/core/dates";

/**
 * Placement on the dashboard: an agreement waiting for the learner's acceptance, read and
 * accepted here, and their consent to be named publicly, withdrawn here. Both post to
 * /placement's action, which checks them as on that page. Nothing to say: nothing shown.
 */
export function PlacementPanel({ placement, timeZone }: { placement: DashboardPlacement; timeZone: string }) {
  // Held here, where they outlive the forms: accepting or withdrawing removes the form it was
  // sent from, and the page's new data can arrive in the same render as the answer.
  const accept = useAction();
  const withdraw = useAction();
  const { awaiting, consent } = placement;
  if (awaiting.length === 0 && !consent) return null;
  return (
    <section aria-labelledby="placement-panel-heading" className={`${card} mt-6`} data-testid="placement-panel">
      <h2 id="placement-panel-heading" className="text-xl font-semibold text-slate-900">
        Placement
      </h2>
      {awaiting.map((agreement) => (
        <div key={agreement.enrolmentId} className="mt-4">
          <h3 id={`agreement-${agreement.enrolmentId}`} className="font-semibold text-slate-900">
            Your pay-after-placement agreement for {agreement.batchName} is waiting for you to accept it
          </h3>
          {/* Scrolls within the panel; focusable so it can be scrolled with the keyboard. */}
          <div
            role="region"
            aria-labelledby={`agreement-${agreement.enrolmentId}`}
            tabIndex={0}
            className="mt-2 max-h-64 overflow-y-auto rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-line text-slate-800"
          >
            {agreement.text}
          </div>
          <ActionForm
            intent="accept-agreement"
            action="/placement"
            className="mt-3"
            label="Accept the agreement"
            submitWith={accept}
          >
            <input type="hidden" name="enrolmentId" value={agreement.enrolmentId} />
            <button type="submit" className={primaryButton}>
              I accept this agreement
            </button>
          </ActionForm>
        </div>
      ))}
      {consent && (
        <ActionForm
          intent="withdraw-consent"
          action="/placement"
          className="mt-4"
          label="Withdraw consent"
          submitWith={withdraw}
        >
          <p className="text-slate-800" data-testid="dashboard-consent">
            You agreed on {formatDateTime(consent.givenAt, timeZone)} that the institute may name you on its public site
            as one of its placed learners.
          </p>
          <button type="submit" className={`${secondaryButton} mt-2`}>
            Withdraw my consent
          </button>
        </ActionForm>
      )}
      <p className="mt-4">
        <Link to="/placement" className="font-semibold text-blue-800 underline">
          Open My placement
        </Link>
      </p>
    </section>
  );
}
