import { useId } from "react";
import { Link } from "react-router";
import { ActionForm } from "~/ui/ActionForm";
import { controlClass, labelClass } from "~/ui/form";
import { card, primaryButton } from "~/ui/styles";
import type { loadLearnerPlacementForStaff } from "./placement-page.server";
import { AddApplication } from "./AddApplication";
import { ApplicationCard } from "./ApplicationCard";
import { EnrolmentCard } from "./EnrolmentCard";
import { formatDay } from "~/core/dates";

type Data = Awaited<ReturnType<typeof loadLearnerPlacementForStaff>>;

/** One learner's placement as staff see it: enrol, graduate, verify offers, record fees. */
export function StaffLearnerPlacementPage({ data }: { data: Data }) {
  const ids = useId();
  const { learner, placement, batches } = data;
  const viewer = data.user.level === "admin" ? "admin" : "staff";
  const enrolledIn = new Set(placement.enrolments.map((e) => e.batchName));
  const open = batches.filter((b) => !enrolledIn.has(b.name));
  return (
    <>
      <p className="flex flex-wrap gap-4">
        <Link to="/staff/placement" className="font-semibold text-blue-800 underline">
          Back to the placement board
        </Link>
        <Link
          to={`/staff/learners/${encodeURIComponent(learner.id)}`}
          className="font-semibold text-blue-800 underline"
        >
          Learner's page
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Placement: {learner.name}</h1>
      <p className="text-slate-700">{learner.email}</p>

      <section aria-labelledby={`${ids}-batches`} className="mt-8 space-y-4">
        <h2 id={`${ids}-batches`} className="text-2xl font-bold text-slate-900">
          Batches
        </h2>
        {open.length > 0 ? (
          <ActionForm intent="enrol" className={`${card} flex flex-wrap items-end gap-3`} label="Enrol in a batch">
            <input type="hidden" name="learnerId" value={learner.id} />
            <div className="min-w-56 flex-1">
              <label htmlFor={`${ids}-batch`} className={labelClass}>
                Batch
              </label>
              <select id={`${ids}-batch`} name="batchId" className={controlClass} required>
                {open.map((batch) => (
                  <option key={batch.id} value={batch.id}>
                    {batch.name} ({batch.payment === "pap" ? "pay after placement" : "paid upfront"})
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${ids}-seeking`} className={labelClass}>
                Seeking a job after the course?
              </label>
              <select id={`${ids}-seeking`} name="seeking" className={controlClass} defaultValue="yes">
                <option value="yes">Yes</option>
                <option value="no">No</option>
              </select>
            </div>
            <button type="submit" className={primaryButton}>
              Enrol
            </button>
          </ActionForm>
        ) : (
          batches.length === 0 && (
            <p className="text-slate-700">
              No batches yet.{" "}
              <Link to="/staff/batches" className="font-semibold text-blue-800 underline">
                Create one
              </Link>
              .
            </p>
          )
        )}
        {placement.enrolments.map((enrolment) => (
          <EnrolmentCard key={enrolment.id} enrolment={enrolment} viewer={viewer} timeZone={data.timeZone} />
        ))}
      </section>

      <section aria-labelledby={`${ids}-applications`} className="mt-10 space-y-4">
        <h2 id={`${ids}-applications`} className="text-2xl font-bold text-slate-900">
          Applications
        </h2>
        <AddApplication viewer={viewer} learnerId={learner.id} />
        {placement.applications.length === 0 ? (
          <p className="text-slate-700">No applications yet.</p>
        ) : (
          <ul className="space-y-4">
            {placement.applications.map((application) => (
              <ApplicationCard key={application.id} application={application} viewer={viewer} />
            ))}
          </ul>
        )}
      </section>
      {placement.consent && (
        <p className="mt-8 text-sm text-slate-700">
          Agreed to be named on the public site on {formatDay(placement.consent.givenAt, data.timeZone)}.
        </p>
      )}
    </>
  );
}
