import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { useAction } from "~/ui/use-action";
import { Field } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { formatRupees } from "~/core/money";
import { day, type Application, type Viewer } from "./placement-view";

type Offer = NonNullable<Application["offer"]>;

function offerStatusWords(offer: Offer): string {
  if (offer.status === "verified") return `Verified by ${offer.reviewedBy} on ${day(offer.reviewedAt ?? "")}`;
  if (offer.status === "rejected") return `Rejected by ${offer.reviewedBy}: ${offer.rejectReason}`;
  return "Waiting for the institute to verify it";
}

/** The offer recorded for an application, its letter, and (for staff, while pending) verify or reject. */
export function OfferPanel({ application, offer, viewer }: { application: Application; offer: Offer; viewer: Viewer }) {
  const ids = useId();
  // Held here, where they outlive the forms: verifying or rejecting removes the forms, and the
  // page's new data can arrive in the same render as the answer.
  const verify = useAction();
  const reject = useAction();
  return (
    <div className="mt-4 rounded-md bg-slate-50 p-3 text-sm" data-testid="offer">
      <p className="font-semibold text-slate-900">Offer</p>
      <p>
        Fixed CTC {formatRupees(offer.fixedCtcPaise)} a year
        {offer.variableCtcPaise > 0 && `, variable ${formatRupees(offer.variableCtcPaise)}`} · {offer.location} ·
        offered {day(offer.offerDate)} · joining {day(offer.joiningDate)}
      </p>
      <p className="mt-1" data-testid="offer-status">
        {offerStatusWords(offer)}
      </p>
      <a
        href={`/api/placement/offers/${encodeURIComponent(application.id)}/file`}
        className="mt-1 inline-block font-semibold text-blue-800 underline"
      >
        Download the offer letter ({offer.fileName})
      </a>
      {viewer !== "learner" && offer.status === "pending" && (
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <ActionForm intent="verify-offer" label={`Verify the offer from ${application.company}`} submitWith={verify}>
            <input type="hidden" name="applicationId" value={application.id} />
            <button type="submit" className={primaryButton}>
              Verify offer
            </button>
          </ActionForm>
          <ActionForm
            intent="reject-offer"
            className="flex flex-wrap items-end gap-2"
            label={`Reject the offer from ${application.company}`}
            submitWith={reject}
          >
            <input type="hidden" name="applicationId" value={application.id} />
            <Field id={`${ids}-reject`} name="reason" label="Reason for rejecting" required maxLength={500} />
            <button type="submit" className={secondaryButton}>
              Reject offer
            </button>
          </ActionForm>
        </div>
      )}
    </div>
  );
}
