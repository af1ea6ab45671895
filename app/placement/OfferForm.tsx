import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { Field, RupeesField } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import type { Application } from "./placement-view";

/** The learner records the offer for an application with its letter, or corrects one not yet verified. */
export function OfferForm({ application }: { application: Application }) {
  const ids = useId();
  const { offer } = application;
  return (
    <details className="mt-4" open={(application.stage === "offered" && !offer) || offer?.status === "rejected"}>
      <summary className="cursor-pointer font-semibold text-blue-800">
        {offer ? "Correct the offer" : "Record the offer"}
      </summary>
      <ActionForm
        intent="record-offer"
        withFile
        className="mt-3 grid gap-3 sm:grid-cols-2"
        label={`Offer from ${application.company}`}
      >
        <input type="hidden" name="applicationId" value={application.id} />
        <RupeesField id={`${ids}-fixed`} name="fixedCtc" label="Fixed CTC a year" required />
        <RupeesField id={`${ids}-variable`} name="variableCtc" label="Variable pay a year" optional />
        <Field id={`${ids}-location`} name="location" label="Location" required maxLength={120} />
        <Field id={`${ids}-offer-date`} name="offerDate" label="Offer date" type="date" required />
        <Field id={`${ids}-joining`} name="joiningDate" label="Joining date" type="date" required />
        <Field
          id={`${ids}-file`}
          name="offerLetter"
          label="Offer letter (PDF, at most 5 MB)"
          type="file"
          accept="application/pdf"
          required
        />
        <div className="sm:col-span-2">
          <button type="submit" className={primaryButton}>
            Save the offer
          </button>
        </div>
      </ActionForm>
    </details>
  );
}
