import { useId } from "react";
import { Form, Link } from "react-router";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { controlClass, labelClass } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import type { loadBoard } from "./board-page.server";
import { stageNames } from "./stages";

type Data = Awaited<ReturnType<typeof loadBoard>>;

const offerWords = { pending: "offer to verify", verified: "offer verified", rejected: "offer rejected" } as const;

/** The pipeline: a column per stage with its count; a card opens the learner's placement. */
export function PlacementBoard({ data }: { data: Data }) {
  const ids = useId();
  const { filter, columns } = data;
  return (
    <>
      <StaffSubpageHeading title="Placement board" />
      <p className="mt-2 flex flex-wrap gap-4">
        <Link to="/staff/batches" className="font-semibold text-blue-800 underline">
          Batches and fee terms
        </Link>
      </p>
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3" aria-label="Filter the board">
        <div>
          <label htmlFor={`${ids}-batch`} className={labelClass}>
            Batch
          </label>
          <select id={`${ids}-batch`} name="batch" defaultValue={filter.batchId} className={controlClass}>
            <option value="">All batches</option>
            {data.batches.map((batch) => (
              <option key={batch.id} value={batch.id}>
                {batch.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-course`} className={labelClass}>
            Course
          </label>
          <select id={`${ids}-course`} name="course" defaultValue={filter.course} className={controlClass}>
            <option value="">All courses</option>
            {data.courses.map((course) => (
              <option key={course} value={course}>
                {course}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={primaryButton}>
          Show
        </button>
      </Form>
      <div className="mt-6 flex snap-x gap-4 overflow-x-auto pb-4" role="list" aria-label="Stages">
        {columns.map((column) => (
          // A div: HTML doesn't let a section be a list item.
          <div
            key={column.stage}
            role="listitem"
            aria-labelledby={`${ids}-${column.stage}`}
            className="w-56 shrink-0 snap-start rounded-xl bg-slate-100 p-3"
            data-testid={`column-${column.stage}`}
          >
            <h2 id={`${ids}-${column.stage}`} className="flex justify-between font-bold text-slate-900">
              {stageNames[column.stage]} <span data-testid="count">{column.count.toLocaleString("en-IN")}</span>
            </h2>
            <ul className="mt-3 space-y-2">
              {column.cards.map((card) => (
                <li key={card.id}>
                  <Link
                    to={`/staff/placement/${encodeURIComponent(card.learnerId)}`}
                    className="block rounded-md bg-white p-2 text-sm shadow-sm hover:bg-blue-50"
                  >
                    <span className="block font-semibold text-slate-900">{card.learner}</span>
                    <span className="block text-slate-700">
                      {card.company} — {card.role}
                      {column.stage === "interview" && ` (round ${card.round})`}
                    </span>
                    {card.offer && (
                      <span className="block text-slate-700">
                        {card.offer.fixedCtc}, {offerWords[card.offer.status]}
                      </span>
                    )}
                  </Link>
                </li>
              ))}
            </ul>
            {column.count > column.cards.length && (
              <p className="mt-2 text-sm text-slate-700">
                The {column.cards.length} most recent of {column.count.toLocaleString("en-IN")}.
              </p>
            )}
          </div>
        ))}
      </div>
    </>
  );
}
