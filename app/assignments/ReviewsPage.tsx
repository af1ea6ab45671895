import { useEffect, useId, useRef } from "react";
import { Form, Link } from "react-router";
import { formatDateTime } from "~/core/dates";
import { ActionForm } from "~/ui/ActionForm";
import { Field, controlClass, labelClass } from "~/ui/form";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { card, primaryButton, secondaryButton } from "~/ui/styles";
import { isOneBatch, queueCountText, reviewSchema } from "./assignment-rules";
import type { ReviewsData } from "./reviews-page.server";
import { StatusBadge, WorkAndTalk } from "./WorkAndTalk";

type Current = NonNullable<ReviewsData["current"]>;

/** The batch and assignment filters: a GET form, so the filter is the page's address. */
function Filters({ data }: { data: ReviewsData }) {
  const ids = useId();
  const mine = new Set(data.myBatchIds);
  return (
    <Form method="get" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Filter the reviews">
      <div>
        <label htmlFor={`${ids}-batch`} className={labelClass}>
          Batch
        </label>
        <select id={`${ids}-batch`} name="batch" defaultValue={data.filter.batch} className={controlClass}>
          <option value="all">All batches</option>
          <option value="mine">My batches</option>
          {data.batches.map((batch) => (
            <option key={batch.id} value={batch.id}>
              {batch.name}
              {mine.has(batch.id) ? " (mine)" : ""}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-assignment`} className={labelClass}>
          Assignment
        </label>
        <select
          id={`${ids}-assignment`}
          name="assignment"
          defaultValue={data.filter.assignmentId}
          aria-describedby={isOneBatch(data.filter.batch) ? undefined : `${ids}-assignment-hint`}
          className={controlClass}
        >
          <option value="">All assignments</option>
          {data.assignments.map((assignment) => (
            <option key={assignment.id} value={assignment.id}>
              {assignment.title}
            </option>
          ))}
        </select>
        {isOneBatch(data.filter.batch) ? null : (
          <p id={`${ids}-assignment-hint`} className="mt-1 text-sm text-slate-700">
            Choose one batch to pick among its assignments.
          </p>
        )}
      </div>
      <button type="submit" className={secondaryButton}>
        Show
      </button>
    </Form>
  );
}

/** The submission on screen: what was handed in, the conversation, and the two decisions. */
function CurrentReview({ current, timeZone }: { current: Current; timeZone: string }) {
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const key = `${current.assignmentId}:${current.learnerId}`;
  // The next submission takes the focus, so the keyboard goes on from one review to the next.
  useEffect(() => {
    if (document.activeElement && document.activeElement !== document.body) heading.current?.focus();
  }, [key]);
  const hidden = (
    <>
      <input type="hidden" name="assignmentId" value={current.assignmentId} />
      <input type="hidden" name="learnerId" value={current.learnerId} />
    </>
  );
  return (
    <article className={`${card} mt-4`} aria-labelledby={`${ids}-title`} data-testid="current-review">
      <h3 id={`${ids}-title`} ref={heading} tabIndex={-1} className="text-xl font-bold text-slate-900">
        {current.learner}: {current.title}
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        {current.batch ? `${current.batch}. ` : ""}Due {formatDateTime(current.dueAt, timeZone)}.{" "}
        {current.submittedAt ? `Handed in ${formatDateTime(current.submittedAt, timeZone)}. ` : ""}
        <StatusBadge status={current.status} />
      </p>
      <WorkAndTalk submissions={current.submissions} comments={current.comments} timeZone={timeZone} headingLevel={4} />
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <ActionForm
          intent="review-submission"
          schema={reviewSchema}
          label="Accept"
          className="grid content-start gap-2"
        >
          <input type="hidden" name="decision" value="accept" />
          {hidden}
          {current.maxPoints !== null ? (
            <Field
              id={`${ids}-points`}
              name="points"
              label={`Points (out of ${current.maxPoints})`}
              inputMode="numeric"
              maxLength={5}
            />
          ) : null}
          <Field id={`${ids}-note`} name="comment" label="Comment (optional)" multiline maxLength={2000} />
          <button type="submit" className={primaryButton}>
            Accept
          </button>
        </ActionForm>
        <ActionForm
          intent="review-submission"
          schema={reviewSchema}
          label="Request changes"
          className="grid content-start gap-2"
        >
          <input type="hidden" name="decision" value="changes" />
          {hidden}
          <Field id={`${ids}-changes`} name="comment" label="What to change" multiline maxLength={2000} />
          <button type="submit" className={secondaryButton}>
            Request changes
          </button>
        </ActionForm>
      </div>
    </article>
  );
}

function QueueTable({ rows, timeZone, label }: { rows: ReviewsData["waiting"]; timeZone: string; label: string }) {
  return (
    <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={label}>
      <table className="w-full min-w-[36rem] text-left text-sm">
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 pr-3">
              Learner
            </th>
            <th scope="col" className="py-2 pr-3">
              Assignment
            </th>
            <th scope="col" className="py-2 pr-3">
              Due
            </th>
            <th scope="col" className="py-2">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.assignmentId}:${row.learnerId}`} className="border-b border-slate-200">
              <td className="py-2 pr-3">{row.learner}</td>
              <td className="py-2 pr-3">
                <Link
                  to={`/staff/assignments/${encodeURIComponent(row.assignmentId)}`}
                  className="text-blue-800 underline"
                >
                  {row.title}
                </Link>
              </td>
              <td className="py-2 pr-3">{formatDateTime(row.dueAt, timeZone)}</td>
              <td className="py-2">
                <StatusBadge status={row.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /staff/reviews: submissions waiting (oldest first, one on screen at a time) and what is overdue. */
export function ReviewsPage({ data }: { data: ReviewsData }) {
  const ids = useId();
  return (
    <>
      <StaffSubpageHeading title="Reviews" />
      <p className="mt-2">
        <Link to="/staff/batches" className="font-semibold text-blue-800 underline">
          Batches
        </Link>
      </p>
      <Filters data={data} />
      <section aria-labelledby={`${ids}-waiting`} className="mt-8">
        <h2 id={`${ids}-waiting`} className="text-2xl font-bold text-slate-900">
          Waiting for review ({queueCountText(data.waitingCount)})
        </h2>
        {data.current ? (
          <>
            <CurrentReview current={data.current} timeZone={data.timeZone} />
            {data.waiting.length > 1 ? (
              <QueueTable rows={data.waiting.slice(1)} timeZone={data.timeZone} label="Next in the queue" />
            ) : null}
          </>
        ) : (
          <p className="mt-2 text-slate-700">Nothing is waiting for review.</p>
        )}
      </section>
      <section aria-labelledby={`${ids}-overdue`} className="mt-8">
        <h2 id={`${ids}-overdue`} className="text-2xl font-bold text-slate-900">
          Overdue ({queueCountText(data.overdueCount)})
        </h2>
        {data.overdue.length > 0 ? (
          <QueueTable rows={data.overdue} timeZone={data.timeZone} label="Overdue assignments" />
        ) : (
          <p className="mt-2 text-slate-700">Nothing is overdue.</p>
        )}
      </section>
    </>
  );
}
