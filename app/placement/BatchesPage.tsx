import { useId } from "react";
import { Link } from "react-router";
import { formatDocumentDate } from "~/documents/words";
import { StaffSubpageHeading } from "~/staff/StaffSubpageHeading";
import { ActionForm } from "~/ui/ActionForm";
import { Field, controlClass, labelClass } from "~/ui/form";
import { card, primaryButton } from "~/ui/styles";
import type { loadBatches } from "./board-page.server";

type Data = Awaited<ReturnType<typeof loadBatches>>;

/** Batches (staff create them) and the fee terms of PAP batches (admins define them). */
export function BatchesPage({ data }: { data: Data }) {
  const ids = useId();
  const isAdmin = data.user.level === "admin";
  return (
    <>
      <StaffSubpageHeading title="Batches and fee terms" />
      <p className="mt-2">
        <Link to="/staff/placement" className="font-semibold text-blue-800 underline">
          Placement board
        </Link>
      </p>

      <section aria-labelledby={`${ids}-batches`} className="mt-8">
        <h2 id={`${ids}-batches`} className="text-2xl font-bold text-slate-900">
          Batches
        </h2>
        {data.batches.length === 0 ? (
          <p className="mt-2 text-slate-700">No batches yet.</p>
        ) : (
          <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Batches table">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <thead>
                <tr className="border-b border-slate-300">
                  <th scope="col" className="py-2 pr-3">
                    Batch
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Course
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Dates
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Payment
                  </th>
                  <th scope="col" className="py-2 text-right">
                    Enrolled
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.batches.map((batch) => (
                  <tr key={batch.id} className="border-b border-slate-200" data-testid="batch">
                    <td className="py-2 pr-3 font-semibold">
                      <Link
                        to={`/staff/placement?batch=${encodeURIComponent(batch.id)}`}
                        className="text-blue-800 underline"
                      >
                        {batch.name}
                      </Link>
                    </td>
                    <td className="py-2 pr-3">{batch.course}</td>
                    <td className="py-2 pr-3">
                      {formatDocumentDate(batch.startDate)} to {formatDocumentDate(batch.endDate)}
                    </td>
                    <td className="py-2 pr-3">
                      {batch.payment === "pap" ? `Pay after placement (${batch.termsName})` : "Paid upfront"}
                    </td>
                    <td className="py-2 text-right">{batch.enrolled.toLocaleString("en-IN")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <ActionForm intent="create-batch" className={`${card} mt-4 grid gap-3 sm:grid-cols-3`} label="New batch">
          <h3 className="text-lg font-bold text-slate-900 sm:col-span-3">New batch</h3>
          <Field
            id={`${ids}-name`}
            name="name"
            label="Name"
            placeholder="Web Dev – Jan 2027"
            required
            maxLength={120}
          />
          <Field id={`${ids}-course`} name="course" label="Course" required maxLength={120} />
          <div>
            <label htmlFor={`${ids}-payment`} className={labelClass}>
              Payment
            </label>
            <select id={`${ids}-payment`} name="payment" className={controlClass} defaultValue="pap">
              <option value="pap">Pay after placement</option>
              <option value="upfront">Paid upfront</option>
            </select>
          </div>
          <Field id={`${ids}-start`} name="startDate" label="Start date" type="date" required />
          <Field id={`${ids}-end`} name="endDate" label="End date" type="date" required />
          <div>
            <label htmlFor={`${ids}-terms`} className={labelClass}>
              Fee terms (pay after placement)
            </label>
            <select id={`${ids}-terms`} name="termsId" className={controlClass} defaultValue="">
              <option value="">None</option>
              {data.terms.map((terms) => (
                <option key={terms.id} value={terms.id}>
                  {terms.name}
                </option>
              ))}
            </select>
          </div>
          <div className="sm:col-span-3">
            <button type="submit" className={primaryButton}>
              Create batch
            </button>
          </div>
        </ActionForm>
      </section>

      <section aria-labelledby={`${ids}-terms-title`} className="mt-10">
        <h2 id={`${ids}-terms-title`} className="text-2xl font-bold text-slate-900">
          Fee terms
        </h2>
        {data.terms.length === 0 ? (
          <p className="mt-2 text-slate-700">No fee terms yet.</p>
        ) : (
          <ul className="mt-3 space-y-2">
            {data.terms.map((terms) => (
              <li key={terms.id} className="rounded-md border border-slate-200 bg-white p-3" data-testid="terms">
                <span className="font-semibold text-slate-900">{terms.name}</span>: {terms.summary}
              </li>
            ))}
          </ul>
        )}
        {isAdmin && (
          <ActionForm intent="define-terms" className={`${card} mt-4 grid gap-3 sm:grid-cols-3`} label="New fee terms">
            <h3 className="text-lg font-bold text-slate-900 sm:col-span-3">New fee terms</h3>
            <Field
              id={`${ids}-terms-name`}
              name="name"
              label="Name"
              placeholder="PAP 2027 v1"
              required
              maxLength={120}
            />
            <Field
              id={`${ids}-threshold`}
              name="threshold"
              label="CTC threshold a year (₹)"
              inputMode="decimal"
              required
            />
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
            <Field id={`${ids}-fee-amount`} name="feeAmount" label="Fixed fee (₹)" inputMode="decimal" />
            <Field id={`${ids}-cap`} name="cap" label="Cap (₹, optional)" inputMode="decimal" />
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
    </>
  );
}
