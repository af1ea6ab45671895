import { useId } from "react";
import { Link } from "react-router";
import { formatDocumentDate } from "~/documents/words";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { ActionForm } from "~/ui/ActionForm";
import { Field, controlClass, labelClass } from "~/ui/form";
import { card, primaryButton } from "~/ui/styles";
import type { loadBatches } from "./board-page.server";
import { FeeTermsSection } from "./FeeTermsSection";
import { CoursePicker } from "~/catalogue/CoursePicker";
import { termsSourceLabels } from "./terms-source";

type Data = Awaited<ReturnType<typeof loadBatches>>;

/** Staff create a batch: pay after placement on chosen fee terms, or paid upfront. */
function NewBatchForm({ terms, courses }: { terms: Data["terms"]; courses: Data["courses"] }) {
  const ids = useId();
  return (
    <ActionForm intent="create-batch" className={`${card} mt-4 grid gap-3 sm:grid-cols-3`} label="New batch">
      <h3 className="text-lg font-bold text-slate-900 sm:col-span-3">New batch</h3>
      <Field id={`${ids}-name`} name="name" label="Name" placeholder="Web Dev – Jan 2027" required maxLength={120} />
      <CoursePicker id={`${ids}-course`} courses={courses} />
      <Field
        id={`${ids}-schedule`}
        name="schedule"
        label="Schedule (optional)"
        placeholder="Mon–Fri 6–8 pm"
        maxLength={120}
      />
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
          <option value="">The course&rsquo;s terms</option>
          {terms.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
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
  );
}

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
        </Link>{" "}
        ·{" "}
        <Link to="/staff/reviews" className="font-semibold text-blue-800 underline">
          Reviews
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
                      <Link to={`/staff/batches/${encodeURIComponent(batch.id)}`} className="text-blue-800 underline">
                        {batch.name}
                      </Link>
                    </td>
                    <td className="py-2 pr-3">
                      {batch.course}
                      {batch.schedule ? <span className="block text-slate-700">{batch.schedule}</span> : null}
                    </td>
                    <td className="py-2 pr-3">
                      {formatDocumentDate(batch.startDate)} to {formatDocumentDate(batch.endDate)}
                    </td>
                    <td className="py-2 pr-3">
                      {batch.payment === "pap" ? (
                        <>
                          Pay after placement{batch.termsName ? ` (${batch.termsName})` : ""}
                          <span className="block text-slate-700" data-testid="terms-source">
                            {termsSourceLabels[batch.termsSource]}
                          </span>
                        </>
                      ) : (
                        "Paid upfront"
                      )}
                    </td>
                    <td className="py-2 text-right">{batch.enrolled.toLocaleString("en-IN")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <NewBatchForm terms={data.terms} courses={data.courses} />
      </section>

      <FeeTermsSection terms={data.terms} isAdmin={isAdmin} />
    </>
  );
}
