import { useFetcher } from "react-router";
import { filterQuery, type LearnerFilter } from "~/learners/learner-filter";

/** What the staff workspace's loader answers that the count reads. */
interface CountedPage {
  /** The page's filter as its address writes it. */
  filterQuery: string;
  results: { total: number | null };
}

/**
 * The exact number of learners a search and filter match, counted when a confirmation asks
 * (the list stops counting past its cap). A read of the workspace's loader, not a change.
 */
export function useExactCount(filter: LearnerFilter) {
  const counter = useFetcher<CountedPage>();
  const counted = counter.state === "idle" ? counter.data : undefined;
  const query = filterQuery(filter);
  return {
    request() {
      void counter.load(`/staff?${query}${query ? "&" : ""}count=exact`);
    },
    /** The count, once it is known for this search and filter. */
    count: counted && counted.filterQuery === query ? counted.results.total : null,
  };
}
