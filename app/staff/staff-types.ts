import { z } from "zod";
import type { ProfileField } from "~/accounts/sign-up-schema";
import { messageKinds, type MessageKind } from "~/messages/kinds";
import {
  datesInOrder,
  filter,
  filterMessages,
  filterOf,
  learnerIds,
  type LearnerFilter,
} from "~/learners/learner-filter";
import { defaultSort, firstDirection, sortKeys, type SortDirection, type SortKey } from "./workspace-query";
import { id, plain } from "~/core/fields";

// Shared by the staff pages' loaders and actions and their views: the fields and texts.

/** A learner in the staff list: what a collapsed card shows. */
export interface LearnerSummary {
  id: string;
  username: string;
  course: string;
  photoUrl: string | null;
  counts: Record<MessageKind, number>;
  phone: string;
  createdAt: string;
  /** When they were last seen (to within a few minutes), or null if never since it was recorded. */
  lastActiveAt: string | null;
  hasResume: boolean;
  /** Notices, tasks and certificates not yet opened, and the offer letter if unread. */
  unread: number;
  /** Their assignments past due that they have not handed in (or were sent back for changes). */
  overdue: number;
  /** The names of the batches they are enrolled in. */
  batches: string[];
}

/** One learner as staff see them: their profile fields, and what they have and were sent. */
export type LearnerCard = Record<ProfileField, string> &
  LearnerSummary & {
    email: string;
    createdAt: string;
    taskLinks: { id: string; link: string; createdAt: string }[];
    resume: { fileName: string; uploadedAt: string; url: string } | null;
  };

/**
 * The list counts matching learners up to this many and past it says "More than 1,000": counting
 * every learner whose name contains one or two letters reads the whole table (no index serves
 * such a fragment), and that count was most of a search's time.
 */
export const learnerCountCap = 1000;

export interface LearnerPage {
  learners: LearnerSummary[];
  /** How many learners match, or null for more than `learnerCountCap`. */
  total: number | null;
  page: number;
  /** The last page, or null while the total is not known. */
  pages: number | null;
  /** Whether another page follows this one. */
  hasNext: boolean;
  pageSize: number;
}

/** Someone with a role, as the people page lists them. */
export interface Person {
  id: string;
  name: string;
  email: string;
  role: string;
  /** When they got this role (or, if it never changed, when the account was made). */
  since: string;
}

const kind = z.enum(messageKinds, { error: "Unknown message kind." });
// Raw HTML may be several times its sanitized size; the stored limit is checked after sanitizing.
const text = plain(100_000, "That text is too long.");
export const sendSchema = z.object({ learnerId: id.default(""), kind, html: text.default("") });
export const bulkSendSchema = z
  .object({
    ...filter,
    kind,
    html: text.default(""),
    /** The number the confirmation showed; the send is refused if the set changed since. */
    expectedCount: z.coerce.number({ error: "Unknown count." }).int().min(0).max(100_000_000),
  })
  .refine(datesInOrder, { error: filterMessages.datesReversed });
export const sendSelectedSchema = z.object({ learnerIds, kind, html: text.default("") });
/** A text as learners will see it, before it is sent. */
export const previewSchema = z.object({ kind, html: text.default("") });
export const clearSchema = z.object({ learnerId: id.default(""), kind });
export const deleteMessageSchema = z.object({ learnerId: id.default(""), messageId: id.default("") });
export const offerLetterSchema = z.object({ learnerId: id.default(""), html: text.default("") });
export const roleSchema = z.object({
  userId: id.pipe(z.string().min(1)),
  role: plain(40, "That role name is too long."),
});
/** The people page's URL: `?q=…`. */
export const peopleSearchSchema = z.object({ q: filter.search });

/** The learners a page of the staff list can show; the first is the default. */
export const pageSizes = [20, 50, 100] as const;

const { search: _search, ...urlFilters } = filter;

/** The staff workspace's URL: `?q=…&course=…&batch=…&sort=…&dir=…&page=…&size=…` and the other filters. */
export const searchSchema = z.object({
  q: filter.search,
  ...urlFilters,
  sort: z.enum(sortKeys).catch(defaultSort.key),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  size: z.coerce
    .number()
    .refine((size) => pageSizes.some((allowed) => allowed === size))
    .catch(pageSizes[0]),
  /** The expanded card's learner. */
  selected: id.optional(),
  /** "exact": count every matching learner, past the cap (the bulk-send confirmation asks). */
  count: z.enum(["exact"], { error: "Unknown count." }).optional(),
});

export type WorkspaceSearch = z.infer<typeof searchSchema>;

/**
 * The address's search and filters, checked (the dates the right way round), as a LearnerFilter
 * read by this staff member (whose batches "mine" names).
 */
export function addressFilter(params: WorkspaceSearch, viewerId: string): LearnerFilter | { refused: string } {
  if (!datesInOrder(params)) return { refused: filterMessages.datesReversed };
  return filterOf({ ...params, search: params.q }, viewerId);
}

/** The address's sort, with each column's own first direction when none is named. */
export function addressSort(params: WorkspaceSearch): { key: SortKey; dir: SortDirection } {
  return { key: params.sort, dir: params.dir ?? firstDirection[params.sort] };
}
