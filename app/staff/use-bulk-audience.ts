import { useState } from "react";
import { audienceWords, namesInWords, type AudienceNames } from "~/learners/audience";
import { filterFields, type LearnerFilter } from "~/learners/learner-filter";
import { useExactCount } from "~/ui/use-exact-count";

/** Whom a bulk action is for: the ticked learners, or every learner the filters match. */
export type BulkTarget = "ticked" | "matching";

/**
 * The audience of a bulk action on learners: how many (the ticked, or the matching counted
 * exactly when the list stopped counting), in words, and the fields that name them to the
 * server (the ids, or the filter with the count the person confirmed, refused with the new
 * count if the set changed since).
 */
export function useBulkAudience({
  ticked,
  filter,
  total,
  names,
}: {
  /** The ticked learners: id to name. */
  ticked: ReadonlyMap<string, string>;
  filter: LearnerFilter;
  /** How many learners match, or null past the list's cap. */
  total: number | null;
  names: AudienceNames;
}) {
  const exact = useExactCount(filter);
  /**
   * The number the confirmation shows, kept while it is open (a live reload of the list does not
   * change it under the person's eyes; the server refuses if the set changed): the list's count
   * when it opened, or the one a refusal brought back. Null while the exact count is asked for.
   */
  const [shown, setShown] = useState<number | null>(null);

  const count = (target: BulkTarget): number | null => (target === "ticked" ? ticked.size : (shown ?? exact.count));

  return {
    count,
    /** A confirmation opens: its number is the list's, or counted now if the list stopped counting. */
    start(target: BulkTarget) {
      setShown(total);
      if (target === "matching" && total === null) exact.request();
    },
    /** Who, in words: "3 selected learners: Asha, Ravi and Leena", "all 120 learners". */
    words(target: BulkTarget): string {
      if (target === "ticked") {
        return `${ticked.size} selected ${ticked.size === 1 ? "learner" : "learners"}: ${namesInWords([...ticked.values()])}`;
      }
      const n = count(target);
      return n === null ? "the matching learners (counting…)" : audienceWords(filter, n, names);
    },
    /** The fields naming them: the ids, or the filter and the confirmed count. */
    fields(target: BulkTarget): Record<string, string> {
      if (target === "ticked") return { learnerIds: [...ticked.keys()].join(",") };
      return { ...filterFields(filter), expectedCount: String(count(target) ?? "") };
    },
    /** The server counted differently (409): the confirmation shows its number now. */
    changed: setShown,
  };
}

export type BulkAudience = ReturnType<typeof useBulkAudience>;
