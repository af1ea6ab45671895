// Where a pay-after-placement batch's fee terms come from, as the batch page and the fee pages say it.

export type TermsSource = "override" | "own" | "course" | "none";

/** From the batch's own terms and its course's (ids or names; null for none). */
export function termsSourceOf(own: string | null, course: string | null): TermsSource {
  if (own !== null) return course !== null ? "override" : "own";
  return course !== null ? "course" : "none";
}

export const termsSourceLabels: Record<TermsSource, string> = {
  override: "Overrides the course's terms",
  own: "Its own terms (its course has none)",
  course: "The course's terms",
  none: "No fee terms",
};
