import { useFetcher } from "react-router";
import type { LearnerFilter } from "~/learners/learner-filter";

/** What the staff workspace's loader answers that the count reads. */
interface CountedPage {
  filter: { q: string; course: string };
  results: { total: number | null };
}

/**
 * The exact number of learners a search and course match, counted when a confirmation asks
 * (the list stops counting past its cap). A read of the workspace's loader, not a change.
 */
export function useExactCount(filter: LearnerFilter) {
  const counter = useFetcher<CountedPage>();
  const counted = counter.state === "idle" ? counter.data : undefined;
  return {
    request() {
      const query = new URLSearchParams({ q: filter.search, course: filter.course, count: "exact" });
      void counter.load(`/staff?${query}`);
    },
    /** The count, once it is known for this search and course. */
    count:
      counted && counted.filter.q === filter.search && counted.filter.course === filter.course
        ? counted.results.total
        : null,
  };
}
