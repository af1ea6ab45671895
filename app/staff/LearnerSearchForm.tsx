import { useId } from "react";
import { allBatches, myBatches, type LearnerFilter } from "~/learners/learner-filter";
import { applicationStages, stageNames } from "~/placement/stages";
import { Field } from "~/ui/form";
import { pageSizes } from "./staff-types";
import type { WorkspaceSearch } from "./use-workspace-search";
import { firstDirection, sortKeys, sortNames, type SortDirection, type SortKey } from "./workspace-query";

const selectClass = "mt-1 rounded-md border border-slate-400 p-2";
const labelClass = "block font-semibold text-slate-900";
const inactiveChoices = [7, 14, 30, 60, 90];

/** The search box, the filters and the page size; each change is a new address. */
export function LearnerSearchForm({
  search,
  filter,
  courses,
  batches,
  trains = false,
  pageSize,
  sort,
}: {
  search: WorkspaceSearch;
  filter: LearnerFilter;
  sort: { key: SortKey; dir: SortDirection };
  courses: string[];
  batches: { id: string; name: string }[];
  /** Whether the staff member trains a batch: they get "My batches", and "All batches" is said outright. */
  trains?: boolean;
  pageSize: number;
}) {
  const ids = useId();
  return (
    <form
      role="search"
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        search.go({ q: search.searchText });
      }}
    >
      <div className="flex flex-wrap items-end gap-4">
        <Field
          className="min-w-56 flex-1"
          id={`${ids}-search`}
          label="Search by name, email or phone"
          type="search"
          name="q"
          value={search.searchText}
          onChange={(e) => search.setSearchText(e.target.value)}
        />
        <div>
          <label htmlFor={`${ids}-course`} className={labelClass}>
            Course
          </label>
          <select
            id={`${ids}-course`}
            name="course"
            className={selectClass}
            value={filter.course}
            onChange={(e) => search.go({ course: e.target.value })}
          >
            <option value="">All Courses</option>
            {courses.map((one) => (
              <option key={one} value={one}>
                {one}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-batch`} className={labelClass}>
            Batch
          </label>
          <select
            id={`${ids}-batch`}
            name="batch"
            className={`${selectClass} max-w-56`}
            value={!trains && filter.batch === allBatches ? "" : (filter.batch ?? "")}
            onChange={(e) => search.go({ set: { batch: e.target.value } })}
          >
            {/* A trainer without a batch in the address starts with theirs, so "all" is a value of its own. */}
            <option value={trains ? allBatches : ""}>All batches</option>
            {(trains || filter.batch === myBatches) && <option value={myBatches}>My batches</option>}
            {batches.map((one) => (
              <option key={one.id} value={one.id}>
                {one.name}
              </option>
            ))}
          </select>
        </div>
        <SortSelect id={`${ids}-sort`} search={search} sort={sort} />
        <div>
          <label htmlFor={`${ids}-size`} className={labelClass}>
            Per page
          </label>
          <select
            id={`${ids}-size`}
            name="size"
            className={selectClass}
            value={pageSize}
            onChange={(e) => search.go({ size: Number(e.target.value) })}
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      </div>
      <MoreFilters search={search} filter={filter} />
    </form>
  );
}

/** The order of the cards (on a wide screen the table's headers sort). */
function SortSelect({
  id,
  search,
  sort,
}: {
  id: string;
  search: WorkspaceSearch;
  sort: { key: SortKey; dir: SortDirection };
}) {
  return (
    <div className="lg:hidden">
      <label htmlFor={id} className={labelClass}>
        Sort by
      </label>
      <select
        id={id}
        className={selectClass}
        value={`${sort.key} ${sort.dir}`}
        onChange={(e) => {
          const [key, dir] = e.target.value.split(" ");
          search.go({ set: { sort: key, dir } }, true);
        }}
      >
        {sortKeys.flatMap((key) =>
          (firstDirection[key] === "asc" ? (["asc", "desc"] as const) : (["desc", "asc"] as const)).map((dir) => (
            <option key={`${key} ${dir}`} value={`${key} ${dir}`}>
              {sortNames[key]} ({orderWords(key, dir)})
            </option>
          )),
        )}
      </select>
    </div>
  );
}

/** The filters past search, course and batch, folded away until one is on. */
function MoreFilters({ search, filter }: { search: WorkspaceSearch; filter: LearnerFilter }) {
  const ids = useId();
  const more = [filter.noResume, filter.unread, filter.inactiveDays, filter.stage, filter.joinedFrom, filter.joinedTo];
  const moreOn = more.filter(Boolean).length;
  const inactive = filter.inactiveDays ?? 0;
  const days = inactive && !inactiveChoices.includes(inactive) ? [...inactiveChoices, inactive] : inactiveChoices;
  return (
    <details open={moreOn > 0} className="rounded-md border border-slate-300 bg-white px-3 py-2">
      <summary className="cursor-pointer font-semibold text-slate-900">
        More filters{moreOn > 0 ? ` (${moreOn} on)` : ""}
      </summary>
      <div className="mt-3 flex flex-wrap items-end gap-4">
        <label className="flex items-center gap-2 font-semibold text-slate-900">
          <input
            type="checkbox"
            className="h-5 w-5"
            // Ticked at once; the address (and so the list) follows.
            key={String(filter.noResume ?? false)}
            defaultChecked={filter.noResume ?? false}
            onChange={(e) => search.go({ set: { noResume: e.target.checked ? "1" : "" } })}
          />
          Has no resume
        </label>
        <label className="flex items-center gap-2 font-semibold text-slate-900">
          <input
            type="checkbox"
            className="h-5 w-5"
            // Ticked at once; the address (and so the list) follows.
            key={String(filter.unread ?? false)}
            defaultChecked={filter.unread ?? false}
            onChange={(e) => search.go({ set: { unread: e.target.checked ? "1" : "" } })}
          />
          Has unread items
        </label>
        <div>
          <label htmlFor={`${ids}-inactive`} className={labelClass}>
            Not active for
          </label>
          <select
            id={`${ids}-inactive`}
            className={selectClass}
            value={inactive || ""}
            onChange={(e) => search.go({ set: { inactive: e.target.value } })}
          >
            <option value="">Any time</option>
            {days.map((n) => (
              <option key={n} value={n}>
                {n} days or more
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-stage`} className={labelClass}>
            Placement stage
          </label>
          <select
            id={`${ids}-stage`}
            className={selectClass}
            value={filter.stage ?? ""}
            onChange={(e) => search.go({ set: { stage: e.target.value } })}
          >
            <option value="">Any stage</option>
            {applicationStages.map((stage) => (
              <option key={stage} value={stage}>
                {stageNames[stage]}
              </option>
            ))}
          </select>
        </div>
        <DateFilter
          id={`${ids}-from`}
          label="Joined from"
          value={filter.joinedFrom ?? ""}
          onDate={(from) => search.go({ set: { from } })}
        />
        <DateFilter
          id={`${ids}-to`}
          label="Joined to"
          value={filter.joinedTo ?? ""}
          onDate={(to) => search.go({ set: { to } })}
        />
      </div>
    </details>
  );
}

/** A direction in words for its column: "newest first", "A to Z", "most first". */
function orderWords(key: SortKey, dir: SortDirection): string {
  if (key === "joined" || key === "active") return dir === "desc" ? "newest first" : "oldest first";
  if (key === "unread" || key === "overdue") return dir === "desc" ? "most first" : "fewest first";
  if (key === "resume") return dir === "desc" ? "with a resume first" : "without a resume first";
  return dir === "asc" ? "A to Z" : "Z to A";
}

function DateFilter({
  id,
  label,
  value,
  onDate,
}: {
  id: string;
  label: string;
  value: string;
  onDate: (date: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type="date"
        className={selectClass}
        defaultValue={value}
        key={value}
        onChange={(e) => {
          // A date input says "" while a day is half typed: only a whole day (or clearing it) applies.
          if (e.target.value === "" || /^\d{4}-\d{2}-\d{2}$/.test(e.target.value)) onDate(e.target.value);
        }}
      />
    </div>
  );
}
