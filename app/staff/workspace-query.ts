// The staff workspace's address: which parameters are its filters and sort (what a saved view keeps).

/** The address parameters a saved view keeps (not the page, the open learner or a count). */
export const viewParams = [
  "q",
  "course",
  "batch",
  "noResume",
  "unread",
  "inactive",
  "stage",
  "from",
  "to",
  "sort",
  "dir",
  "size",
] as const;

/** The part of a workspace address a view keeps, in a fixed order, without empty values. */
export function viewQuery(search: string | URLSearchParams): string {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const kept = new URLSearchParams();
  for (const name of viewParams) {
    const value = params.get(name);
    if (value) kept.set(name, value);
  }
  return kept.toString();
}
