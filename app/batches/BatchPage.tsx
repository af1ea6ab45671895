import { useId, useState } from "react";
import { Link } from "react-router";
import { NewAssignmentForm } from "~/assignments/NewAssignmentForm";
import { CoursePicker } from "~/catalogue/CoursePicker";
import { formatDateTime } from "~/core/dates";
import { formatDocumentDate } from "~/documents/words";
import { ActionForm } from "~/ui/ActionForm";
import { Field, controlClass, labelClass } from "~/ui/form";
import { termsSourceLabels } from "~/placement/terms-source";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { card, primaryButton } from "~/ui/styles";
import type { BatchPageData } from "./batch-page.server";
import { BatchCertificates } from "./BatchCertificates";
import { EnrolByEmail, LearnersTable } from "./BatchLearners";
import { editBatchSchema } from "./batch-rules";

/** The batch's course (from the catalogue), schedule line and trainers. */
function EditBatch({ data }: { data: BatchPageData }) {
  const ids = useId();
  const { batch } = data;
  const [trainers, setTrainers] = useState(() => new Set(data.staff.filter((m) => m.trainer).map((m) => m.id)));
  const toggle = (id: string, on: boolean) =>
    setTrainers((before) => {
      const next = new Set(before);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <ActionForm
      intent="edit-batch"
      schema={editBatchSchema}
      resetOnSuccess={false}
      label="Course, schedule and trainers"
      className={`${card} mt-6 grid gap-3 sm:grid-cols-2`}
    >
      <h2 className="text-xl font-bold text-slate-900 sm:col-span-2">Course, schedule and trainers</h2>
      <input type="hidden" name="batchId" value={batch.id} />
      <input type="hidden" name="trainerIds" value={[...trainers].join(",")} />
      <CoursePicker id={`${ids}-course`} courses={data.courses} defaultValue={batch.courseSlug ?? ""} />
      <Field
        id={`${ids}-schedule`}
        name="schedule"
        label="Schedule"
        placeholder="Mon–Fri 6–8 pm"
        defaultValue={batch.schedule}
        maxLength={120}
      />
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-semibold text-slate-900">Trainers</legend>
        <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
          {data.staff.map((member) => (
            <label key={member.id} className="inline-flex items-center gap-2">
              <input
                type="checkbox"
                checked={trainers.has(member.id)}
                onChange={(event) => toggle(member.id, event.target.checked)}
              />
              {member.name}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="sm:col-span-2">
        <button type="submit" className={primaryButton}>
          Save batch
        </button>
      </div>
    </ActionForm>
  );
}

/** A pay-after-placement batch's fee terms: the course's, or its own overriding them; admins change which. */
function BatchFeeTerms({ data }: { data: BatchPageData }) {
  const ids = useId();
  const { feeTerms, batch } = data;
  if (batch.payment !== "pap") return null;
  return (
    <section aria-labelledby={`${ids}-terms`} className={`${card} mt-6`}>
      <h2 id={`${ids}-terms`} className="text-xl font-bold text-slate-900">
        Fee terms
      </h2>
      <p className="mt-2 text-slate-900">
        {feeTerms.inForce ? (
          <>
            <strong>{feeTerms.inForce.name}</strong>: {feeTerms.inForce.line}
          </>
        ) : (
          "None: enrolments get no agreement until the batch or its course has fee terms."
        )}
      </p>
      <p className="mt-1 text-sm text-slate-700" data-testid="terms-source">
        <strong className={feeTerms.source === "override" ? "text-amber-900" : "text-slate-900"}>
          {termsSourceLabels[feeTerms.source]}
          {feeTerms.source === "override" && feeTerms.courseTermsName ? ` (${feeTerms.courseTermsName})` : ""}.
        </strong>{" "}
        New enrolments agree to these; agreements already drawn up keep theirs.
      </p>
      {data.user.level === "admin" && (
        <ActionForm
          intent="set-batch-terms"
          resetOnSuccess={false}
          label="Change the batch's fee terms"
          className="mt-3 flex flex-wrap items-end gap-3"
        >
          <input type="hidden" name="batchId" value={batch.id} />
          <div>
            <label htmlFor={`${ids}-choice`} className={labelClass}>
              Use
            </label>
            <select
              id={`${ids}-choice`}
              name="termsId"
              className={controlClass}
              defaultValue={feeTerms.ownTermsId ?? ""}
              key={feeTerms.ownTermsId ?? ""}
            >
              <option value="">
                The course&rsquo;s terms{feeTerms.courseTermsName ? ` (${feeTerms.courseTermsName})` : " (none yet)"}
              </option>
              {feeTerms.choices.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={primaryButton}>
            Save fee terms
          </button>
        </ActionForm>
      )}
    </section>
  );
}

function Assignments({ data }: { data: BatchPageData }) {
  const ids = useId();
  return (
    <section aria-labelledby={`${ids}-heading`} className="mt-8">
      <h2 id={`${ids}-heading`} className="text-2xl font-bold text-slate-900">
        Assignments
      </h2>
      {data.assignments.length === 0 ? (
        <p className="mt-2 text-slate-700">No assignments yet.</p>
      ) : (
        <ul className="mt-3 grid gap-2">
          {data.assignments.map((assignment) => (
            <li key={assignment.id} className="rounded-md border border-slate-200 p-3" data-testid="batch-assignment">
              <Link
                to={`/staff/assignments/${encodeURIComponent(assignment.id)}`}
                className="font-semibold text-blue-800 underline"
              >
                {assignment.title}
              </Link>
              <span className="block text-sm text-slate-700">
                Due {formatDateTime(assignment.dueAt, data.timeZone)} · {assignment.accepted} of {assignment.learners}{" "}
                accepted · {assignment.waiting} waiting for review
              </span>
            </li>
          ))}
        </ul>
      )}
      <NewAssignmentForm batchId={data.batch.id} today={data.today} timeZone={data.timeZone} />
    </section>
  );
}

/** /staff/batches/:id: a batch as the unit of teaching. */
export function BatchPage({ data }: { data: BatchPageData }) {
  const { batch } = data;
  return (
    <>
      <StaffSubpageHeading title={batch.name} />
      <p className="mt-2 text-slate-700">
        {batch.course}
        {batch.schedule ? `, ${batch.schedule}` : ""}. {formatDocumentDate(batch.startDate)} to{" "}
        {formatDocumentDate(batch.endDate)}.
      </p>
      <p className="mt-2 flex flex-wrap gap-4">
        <Link to="/staff/batches" className="font-semibold text-blue-800 underline">
          All batches
        </Link>
        <Link
          to={`/staff/reviews?batch=${encodeURIComponent(batch.id)}`}
          className="font-semibold text-blue-800 underline"
        >
          Reviews for this batch
        </Link>
        <Link
          to={`/staff/placement?batch=${encodeURIComponent(batch.id)}`}
          className="font-semibold text-blue-800 underline"
        >
          Placement board
        </Link>
      </p>
      <EditBatch data={data} />
      <BatchFeeTerms data={data} />
      <Assignments data={data} />
      <BatchCertificates data={data} />
      <LearnersTable data={data} />
      <EnrolByEmail batchId={batch.id} />
    </>
  );
}
