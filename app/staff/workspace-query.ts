// The staff workspace's address: which parameters are its filters and sort (what a saved view
// keeps), and the table's sortable columns with their names.

/** The table's sortable columns, as the address names them (`sort=`). */
export const sortKeys = [
  "name",
  "course",
  "batches",
  "phone",
  "joined",
  "resume",
  "active",
  "unread",
  "overdue",
] as const;
export type SortKey = (typeof sortKeys)[number];

export const sortNames: Record<SortKey, string> = {
  name: "Name",
  course: "Course",
  batches: "Batches",
  phone: "Phone",
  joined: "Joined",
  resume: "Resume",
  active: "Last active",
  unread: "Unread",
  overdue: "Assignments overdue",
};

export type SortDirection = "asc" | "desc";

/** The list's order when the address names none: newest first. */
export const defaultSort: { key: SortKey; dir: SortDirection } = { key: "joined", dir: "desc" };

/** Each column's first direction when chosen: dates and counts newest or most first, text A to Z. */
export const firstDirection: Record<SortKey, SortDirection> = {
  name: "asc",
  course: "asc",
  batches: "asc",
  phone: "asc",
  joined: "desc",
  resume: "desc",
  active: "desc",
  unread: "desc",
  overdue: "desc",
};

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
