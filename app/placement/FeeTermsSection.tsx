import { useId } from "react";
import { ActionForm } from "~/ui/ActionForm";
import { Field, RupeesField, controlClass, labelClass } from "~/ui/form";
import { card, primaryButton } from "~/ui/styles";
import type { loadBatches } from "./board-page.server";

type Terms = Awaited<ReturnType<typeof loadBatches>>["terms"];

/** The fee terms PAP batches are sold on; only admins define new ones. */
export function FeeTermsSection({ terms, isAdmin }: { terms: Terms; isAdmin: boolean }) {
  const ids = useId();
  return (
    <section aria-labelledby={`${ids}-terms-title`} className="mt-10">
      <h2 id={`${ids}-terms-title`} className="text-2xl font-bold text-slate-900">
        Fee terms
      </h2>
      {terms.length === 0 ? (
        <p className="mt-2 text-slate-700">No fee terms yet.</p>
      ) : (
        <ul className="mt-3 space-y-2">
          {terms.map((entry) => (
            <li key={entry.id} className="rounded-md border border-slate-200 bg-white p-3" data-testid="terms">
              <span className="font-semibold text-slate-900">{entry.name}</span>: {entry.summary}
            </li>
          ))}
        </ul>
      )}
      {isAdmin && (
        <ActionForm intent="define-terms" className={`${card} mt-4 grid gap-3 sm:grid-cols-3`} label="New fee terms">
          <h3 className="text-lg font-bold text-slate-900 sm:col-span-3">New fee terms</h3>
          <Field id={`${ids}-terms-name`} name="name" label="Name" placeholder="PAP 2027 v1" required maxLength={120} />
          <RupeesField id={`${ids}-threshold`} name="threshold" label="CTC threshold a year" required />
          <div>
            <label htmlFor={`${ids}-fee-kind`} className={labelClass}>
              Fee
            </label>
            <select id={`${ids}-fee-kind`} name="feeKind" className={controlClass} defaultValue="percent">
              <option value="percent">A percentage of the fixed CTC</option>
              <option value="fixed">A fixed amount</option>
            </select>
          </div>
          <Field id={`${ids}-fee-percent`} name="feePercent" label="Fee percentage (%)" inputMode="decimal" />
          <RupeesField id={`${ids}-fee-amount`} name="feeAmount" label="Fixed fee" />
          <RupeesField id={`${ids}-cap`} name="cap" label="Cap" optional />
          <Field
            id={`${ids}-instalments`}
            name="instalments"
            label="Instalments"
            inputMode="numeric"
            defaultValue="6"
            required
          />
          <Field
            id={`${ids}-window`}
            name="windowMonths"
            label="Placement window (months)"
            inputMode="numeric"
            defaultValue="12"
            required
          />
          <Field id={`${ids}-gst`} name="gst" label="GST rate (%)" inputMode="decimal" defaultValue="18" required />
          <Field
            id={`${ids}-pause`}
            name="pauseRule"
            label="Pause rule"
            multiline
            className="sm:col-span-3"
            defaultValue="If you lose your job or your income drops below the threshold, tell the institute: instalments pause until you earn above it again."
            required
            maxLength={1000}
          />
          <div className="sm:col-span-3">
            <button type="submit" className={primaryButton}>
              Save fee terms
            </button>
          </div>
        </ActionForm>
      )}
    </section>
  );
}
