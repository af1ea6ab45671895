import { useId } from "react";
import { Link } from "react-router";
import { formatDateTime } from "~/core/dates";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import type { AssignmentPageData } from "./reviews-page.server";
import { assignmentStatuses, handInLabels, statusLabels } from "./statuses";
import { StatusBadge } from "./WorkAndTalk";

/** /staff/assignments/:id: every learner of the assignment with their status, and the CSV of it. */
export function AssignmentPage({ data }: { data: AssignmentPageData }) {
  const ids = useId();
  const { assignment, learners } = data;
  const counts = new Map(assignmentStatuses.map((status) => [status, 0]));
  for (const row of learners) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  return (
    <>
      <StaffSubpageHeading title={assignment.title} />
      <p className="mt-2 text-slate-700">
        {assignment.batch ? (
          <Link
            to={`/staff/batches/${encodeURIComponent(assignment.batchId ?? "")}`}
            className="text-blue-800 underline"
          >
            {assignment.batch}
          </Link>
        ) : (
          "Selected learners"
        )}
        . Due {formatDateTime(assignment.dueAt, data.timeZone)}. Hand in:{" "}
        {handInLabels[assignment.handIn].toLowerCase()}.
        {assignment.maxPoints !== null ? ` ${assignment.maxPoints} points.` : ""}
      </p>
      <p className="mt-2 flex flex-wrap gap-4">
        <Link
          to={`/staff/reviews?batch=all&assignment=${encodeURIComponent(assignment.id)}`}
          className="font-semibold text-blue-800 underline"
        >
          Review its submissions
        </Link>
        <a
          href={`/staff/assignments/${encodeURIComponent(assignment.id)}/matrix.csv`}
          className="font-semibold text-blue-800 underline"
          download
        >
          Download CSV
        </a>
      </p>
      <ul className="mt-4 flex flex-wrap gap-3 text-sm" aria-label="Learners by status">
        {assignmentStatuses.map((status) => (
          <li key={status} className="rounded-md bg-slate-100 px-3 py-1">
            {statusLabels[status]}: <span className="font-semibold">{counts.get(status)}</span>
          </li>
        ))}
      </ul>
      <section aria-labelledby={`${ids}-learners`} className="mt-6">
        <h2 id={`${ids}-learners`} className="text-2xl font-bold text-slate-900">
          Learners ({learners.length.toLocaleString("en-IN")})
        </h2>
        <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Learners and their status">
          <table className="w-full min-w-[32rem] text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-3">
                  Learner
                </th>
                <th scope="col" className="py-2 pr-3">
                  Status
                </th>
                <th scope="col" className="py-2">
                  Last handed in
                </th>
              </tr>
            </thead>
            <tbody>
              {learners.map((row) => (
                <tr key={row.learnerId} className="border-b border-slate-200" data-testid="matrix-row">
                  <td className="py-2 pr-3">
                    {row.name}
                    <span className="block text-slate-700 [overflow-wrap:anywhere]">{row.email}</span>
                  </td>
                  <td className="py-2 pr-3">
                    <StatusBadge status={row.status} points={row.points} maxPoints={assignment.maxPoints} />
                  </td>
                  <td className="py-2">{row.submittedAt ? formatDateTime(row.submittedAt, data.timeZone) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
