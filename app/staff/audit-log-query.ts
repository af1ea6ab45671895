import { z } from "zod";
import { auditActionNames, type StaffAction } from "~/core/audit-actions";
import { id, plain } from "~/core/fields";
import { textLimits } from "~/core/text";
import { day } from "~/learners/learner-filter";

// The audit log's address: who acted, the action, the learner (by a link's id or a search by
// name or email), the days, and the page (a keyset cursor). One schema, read by the loader.

/** Rows on one page of the log. */
export const auditPageSize = 50;
/** A sent text is shown up to this many characters, with a link to the whole of it. */
export const sentTextPreview = 280;
/** A learner search narrows the log to actions on at most this many matching learners. */
export const auditLearnerMatches = 100;

export const auditMessages = {
  badAction: "Unknown action.",
  badPage: "That page of the audit log does not exist: open the newest entries instead.",
  datesReversed: "The 'from' date is after the 'to' date.",
  learnerTwice: "Choose the learner by the link or by the search, not both.",
  searchTooLong: "The learner search is too long.",
} as const;

const actions = Object.keys(auditActionNames) as [StaffAction, ...StaffAction[]];

/** A place in the log: the entry's time and id, `2026-11-27T02:46:21.123Z_<id>`. */
const cursor = z
  .string()
  .max(260, { error: auditMessages.badPage, abort: true })
  .regex(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z_[A-Za-z0-9-]{1,200})?$/, auditMessages.badPage)
  .default("");

export const auditQuerySchema = z
  .object({
    /** The staff member who acted (their user id). */
    who: id.default(""),
    action: z.enum(["", ...actions], { error: auditMessages.badAction }).default(""),
    /** One learner, by id (the learner's page links here so). */
    learner: id.default(""),
    /** Learners whose name or email contains this. */
    q: plain(textLimits.search, auditMessages.searchTooLong).default(""),
    from: day,
    to: day,
    /** Entries older than this place (the next page), or newer than it (the page before). */
    before: cursor,
    after: cursor,
    /** The entry whose sent text is shown whole. */
    text: id.default(""),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, auditMessages.datesReversed)
  .refine((query) => !(query.learner && query.q.trim()), auditMessages.learnerTwice)
  .refine((query) => !(query.before && query.after), auditMessages.badPage);

export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** A place in the log as the address writes it. */
export const cursorOf = (entry: { createdAt: string; id: string }) => `${entry.createdAt}_${entry.id}`;

/** The address's cursor as its time and id. */
export function readCursor(value: string): { createdAt: string; id: string } {
  const at = value.indexOf("_");
  return { createdAt: value.slice(0, at), id: value.slice(at + 1) };
}

/** One line of the audit log as the page shows it. */
export interface AuditRow {
  id: string;
  actorName: string;
  action: StaffAction;
  detail: string | null;
  target: string;
  /** The learner the action concerned, while they are a learner (the row links to them). */
  learnerId: string | null;
  count: number;
  createdAt: string;
  /** The start of the text it sent (plain text), or null if it sent none. */
  sentText: string | null;
  /** Whether `sentText` is only the start of it. */
  sentTextCut: boolean;
}

export interface AuditPage {
  entries: AuditRow[];
  /** The cursor of the page after (older entries), or null at the oldest. */
  older: string | null;
  /** The cursor of the page before (newer entries), or null on the newest. */
  newer: string | null;
  /** The entry shown whole (`text`), when it is on this page. */
  wholeText: { id: string; text: string } | null;
}
