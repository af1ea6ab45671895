import { useId } from "react";
import { Link } from "react-router";
import type { MessageKind } from "~/messages/kinds";
import { formatDateTime, formatShortDay } from "~/core/dates";
import { AdminTools, LearnerDetails } from "./LearnerCardView";
import type { LearnerCard, LearnerSummary } from "./staff-types";
import type { TickedLearners } from "./use-ticked-learners";
import type { WorkspaceSearch } from "./use-workspace-search";
import { firstDirection, sortKeys, sortNames, type SortDirection, type SortKey } from "./workspace-query";

const cell = "px-2 py-2 align-top";

/**
 * The learners of one page as a table (wide screens): a column per field, each sortable by its
 * header (the sort is in the address). Opening a learner shows their whole card below their row.
 */
export function LearnerTable({
  learners,
  sort,
  search,
  selection,
  open,
  isAdmin,
  timeZone,
  offerLetter,
  roles,
  onClear,
}: {
  learners: LearnerSummary[];
  sort: { key: SortKey; dir: SortDirection };
  search: WorkspaceSearch;
  selection: TickedLearners;
  /** The open learner, whole, when one of this page's is open. */
  open: LearnerCard | null;
  isAdmin: boolean;
  timeZone: string;
  offerLetter: string;
  roles: string[];
  onClear: (kind: MessageKind, learner: LearnerSummary) => void;
}) {
  const header = (key: SortKey) => <SortHeader key={key} column={key} sort={sort} search={search} />;
  return (
    <div data-testid="learner-table">
      <div className="mt-2 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            Learners, sorted by {sortNames[sort.key]} ({sort.dir === "asc" ? "ascending" : "descending"})
          </caption>
          <thead className="border-b border-slate-300 bg-slate-50">
            <tr>
              <th scope="col" className={cell}>
                <span className="sr-only">Select</span>
              </th>
              {sortKeys.map(header)}
            </tr>
          </thead>
          {learners.map((learner) => (
            <Row
              key={learner.id}
              learner={learner}
              details={open?.id === learner.id ? open : null}
              ticked={selection.ticked.has(learner.id)}
              onTick={(on) => selection.tick([learner], on)}
              onOpen={() => search.select(open?.id === learner.id ? null : learner.id)}
              timeZone={timeZone}
            >
              {open?.id === learner.id && (
                <>
                  <LearnerDetails
                    learner={open}
                    isAdmin={isAdmin}
                    timeZone={timeZone}
                    onClear={(kind) => onClear(kind, open)}
                  />
                  <p className="mt-4">
                    <Link
                      to={`/staff/learners/${encodeURIComponent(open.id)}`}
                      className="font-semibold text-blue-800 underline"
                    >
                      Open {open.username}&apos;s page
                    </Link>
                  </p>
                  {isAdmin && <AdminTools key={open.id} learner={open} offerLetter={offerLetter} roles={roles} />}
                </>
              )}
            </Row>
          ))}
        </table>
      </div>
    </div>
  );
}

/** A column's header: a button that sorts by it, or turns the order round when it already does. */
function SortHeader({
  column,
  sort,
  search,
}: {
  column: SortKey;
  sort: { key: SortKey; dir: SortDirection };
  search: WorkspaceSearch;
}) {
  const active = sort.key === column;
  const next: SortDirection = active ? (sort.dir === "asc" ? "desc" : "asc") : firstDirection[column];
  return (
    <th
      scope="col"
      className={`${cell} whitespace-nowrap`}
      aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
    >
      <button
        type="button"
        className="inline-flex items-center gap-1 rounded font-semibold text-slate-900 underline-offset-2 hover:underline"
        onClick={() => search.go({ set: { sort: column, dir: next }, page: 1 }, true)}
      >
        {sortNames[column]}
        <span aria-hidden="true" className="text-xs text-slate-700">
          {active ? (sort.dir === "asc" ? "▲" : "▼") : "↕"}
        </span>
      </button>
    </th>
  );
}

/** One learner: their row, and below it, when open, their whole card. */
function Row({
  learner,
  details,
  ticked,
  onTick,
  onOpen,
  timeZone,
  children,
}: {
  learner: LearnerSummary;
  details: LearnerCard | null;
  ticked: boolean;
  onTick: (on: boolean) => void;
  onOpen: () => void;
  timeZone: string;
  /** The open learner's card. */
  children: React.ReactNode;
}) {
  const open = details !== null;
  const detailsId = useId();
  return (
    <tbody
      className={`border-b border-slate-200 last:border-0 ${open ? "bg-blue-50" : ""}`}
      data-testid="learner-row"
      data-selected={open ? "true" : undefined}
    >
      <tr>
        <td className={cell}>
          <input
            type="checkbox"
            className="h-5 w-5"
            checked={ticked}
            onChange={(e) => onTick(e.target.checked)}
            aria-label={`Select ${learner.username}`}
          />
        </td>
        <th scope="row" className={`${cell} font-normal`}>
          <button
            type="button"
            className="text-left font-semibold text-blue-800 underline"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            onClick={onOpen}
          >
            {learner.username}
          </button>
        </th>
        <td className={cell}>{learner.course || "No course"}</td>
        <td className={cell}>{learner.batches.length ? learner.batches.join(", ") : "None"}</td>
        <td className={`${cell} whitespace-nowrap`}>{learner.phone}</td>
        <td className={`${cell} whitespace-nowrap`}>{formatShortDay(learner.createdAt, timeZone)}</td>
        <td className={cell}>{learner.hasResume ? "Yes" : "No"}</td>
        <td className={`${cell} whitespace-nowrap`}>
          {learner.lastActiveAt ? formatDateTime(learner.lastActiveAt, timeZone) : "Never"}
        </td>
        <td className={cell}>{learner.unread}</td>
        <td className={cell}>{learner.overdue}</td>
      </tr>
      {open && (
        <tr>
          <td id={detailsId} colSpan={sortKeys.length + 1} className="border-t border-blue-800 bg-white p-4">
            {children}
          </td>
        </tr>
      )}
    </tbody>
  );
}
