import { useEffect, useId, useRef } from "react";
import type { MessageKind } from "~/messages/kinds";
import { secondaryButton } from "~/ui/styles";
import { LearnerCardView } from "./LearnerCardView";
import type { loadStaffWorkspace } from "./staff-page.server";
import { learnerCountCap, type LearnerSummary } from "./staff-types";
import type { TickedLearners } from "./use-ticked-learners";
import type { WorkspaceSearch } from "./use-workspace-search";
import { LearnerTable } from "./LearnerTable";
import { BulkActions } from "./BulkActions";
import { isFiltered, type LearnerFilter } from "~/learners/learner-filter";

type WorkspaceData = Awaited<ReturnType<typeof loadStaffWorkspace>>;

/**
 * One page of the learners the search matches, with its page links: a table on wide screens,
 * cards to tick or open on narrow ones.
 */
export function LearnerList({
  data,
  search,
  selection,
  onClear,
  children,
}: {
  data: WorkspaceData;
  search: WorkspaceSearch;
  selection: TickedLearners;
  onClear: (kind: MessageKind, learner: LearnerSummary) => void;
  /** The search form, above the count. */
  children: React.ReactNode;
}) {
  const { results, filter, selected, sort } = data;
  const headingId = useId();
  const listTop = useRef<HTMLHeadingElement>(null);

  // A new page of the list starts at its top.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    listTop.current?.scrollIntoView({ block: "start" });
  }, [results.page]);

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} ref={listTop} className="sr-only scroll-mt-4">
        Learners
      </h2>
      {children}
      <BulkActions
        ticked={selection.ticked}
        filter={filter}
        total={results.total}
        names={{ batch: data.batches.find((batch) => batch.id === filter.batch)?.name }}
        batches={data.batches}
        onGone={selection.drop}
      />
      <p className="mt-4 text-sm text-slate-700" aria-live="polite">
        {results.total === null
          ? `More than ${learnerCountCap.toLocaleString("en-IN")} learners`
          : `${results.total} ${results.total === 1 ? "learner" : "learners"}`}
      </p>
      {results.total === 0 && (
        <div className="mt-2 rounded-xl border border-slate-200 bg-white p-4">
          <p className="text-slate-900">{noMatch(filter)}</p>
          {isFiltered(filter) && (
            <button type="button" className={`${secondaryButton} mt-3`} onClick={search.clearSearch}>
              Clear the search
            </button>
          )}
        </div>
      )}
      <SelectAll learners={results.learners} selection={selection} />
      {results.learners.length > 0 && (
        <div className="hidden lg:block">
          <LearnerTable
            learners={results.learners}
            sort={sort}
            search={search}
            selection={selection}
            open={selected}
            isAdmin={data.user.level === "admin"}
            timeZone={data.timeZone}
            offerLetter={data.offerLetter ?? ""}
            roles={data.roles}
            onClear={onClear}
          />
        </div>
      )}
      <ul className="mt-2 space-y-3 lg:hidden">
        {results.learners.map((learner) => (
          <LearnerCardView
            key={learner.id}
            learner={learner}
            ticked={selection.ticked.has(learner.id)}
            onTick={(on) => selection.tick([learner], on)}
            details={learner.id === selected?.id ? selected : null}
            isAdmin={data.user.level === "admin"}
            timeZone={data.timeZone}
            offerLetter={learner.id === selected?.id ? (data.offerLetter ?? "") : ""}
            roles={data.roles}
            onToggle={() => search.select(selected?.id === learner.id ? null : learner.id)}
            onClear={(kind) => onClear(kind, learner)}
          />
        ))}
      </ul>
      {(results.page > 1 || results.hasNext) && (
        <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4">
          <PageButton page={results.page - 1} disabled={results.page <= 1} search={search}>
            Previous
          </PageButton>
          <span className="text-sm text-slate-700">
            {results.pages === null ? `Page ${results.page}` : `Page ${results.page} of ${results.pages}`}
          </span>
          <PageButton page={results.page + 1} disabled={!results.hasNext} search={search}>
            Next
          </PageButton>
        </nav>
      )}
    </section>
  );
}

/** Ticks (or unticks) every learner of the page; says how many are ticked in all. */
function SelectAll({ learners, selection }: { learners: LearnerSummary[]; selection: TickedLearners }) {
  if (learners.length === 0) return null;
  const { ticked } = selection;
  const onPage = learners.filter((learner) => ticked.has(learner.id)).length;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <label className="flex items-center gap-2 font-semibold text-slate-900">
        <input
          type="checkbox"
          className="h-5 w-5"
          checked={onPage === learners.length}
          ref={(box) => {
            if (box) box.indeterminate = onPage > 0 && onPage < learners.length;
          }}
          onChange={(e) => selection.tick(learners, e.target.checked)}
        />
        Select all on this page
      </label>
      {ticked.size > 0 && (
        <>
          <span className="text-slate-700" aria-live="polite">
            {ticked.size} selected
          </span>
          <button type="button" className="font-semibold text-blue-800 underline" onClick={selection.clear}>
            Clear selection
          </button>
        </>
      )}
    </div>
  );
}

/** What an empty list says, naming what was searched. */
function noMatch(filter: LearnerFilter): string {
  const { search: q, course } = filter;
  const others = isFiltered({ ...filter, search: "", course: "" });
  if (others) return "No learners match these filters.";
  const where = course ? ` in ${course}` : "";
  if (q) return `No learners${where} whose name, email or phone contains "${q}".`;
  if (course) return `No learners in ${course}.`;
  return "No learners have signed up yet.";
}

function PageButton({
  page,
  disabled,
  search,
  children,
}: {
  page: number;
  disabled: boolean;
  search: WorkspaceSearch;
  children: React.ReactNode;
}) {
  return (
    <button type="button" className={secondaryButton} disabled={disabled} onClick={() => search.go({ page })}>
      {children}
    </button>
  );
}
