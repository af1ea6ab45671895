import { sql } from "kysely";
import { personName } from "~/accounts/person-name";
import type { Db } from "~/db/database.server";
import { isLearner, nameOrEmailContains, nextDay, startOfDay } from "~/learners/learner-filter.server";
import {
  auditLearnerMatches,
  auditPageSize,
  cursorOf,
  readCursor,
  sentTextPreview,
  type AuditPage,
  type AuditQuery,
} from "./audit-log-query";

// The audit log, newest first, filtered by who, action, learner and days. Each filter reads
// an index that leads with it and continues in the log's order (0046_audit_filters; the days
// alone, the createdAt index of 0003), so a page costs the same at any size of the log.

/** The learners whose name or email contains the text (at most `auditLearnerMatches`). */
async function searchedLearnerIds(db: Db, text: string): Promise<string[]> {
  const rows = await db
    .selectFrom("user")
    .select("id")
    .where(isLearner)
    .where((eb) => nameOrEmailContains(eb, text))
    .limit(auditLearnerMatches)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The query of one page (one more row than it shows, to know whether another follows):
 * `learnerIds` are the search's learners (null: no search).
 */
export function auditPageQuery(db: Db, query: AuditQuery, timeZone: string, learnerIds: string[] | null) {
  const newerFirst = !query.after;
  const order = newerFirst ? "desc" : "asc";
  let select = db
    .selectFrom("staff_audit")
    .leftJoin("user", "user.id", "staff_audit.targetId")
    .select([
      "staff_audit.id",
      "staff_audit.actorName",
      "staff_audit.action",
      "staff_audit.detail",
      "staff_audit.target",
      "staff_audit.count",
      "staff_audit.createdAt",
      sql<string | null>`substr("staff_audit"."sentText", 1, ${sentTextPreview + 1})`.as("sentTextStart"),
      sql<string | null>`case when "user"."id" is not null and ${isLearner} then "user"."id" end`.as("learnerId"),
    ])
    .orderBy("staff_audit.createdAt", order)
    .orderBy("staff_audit.id", order)
    .limit(auditPageSize + 1);
  if (query.who) select = select.where("staff_audit.actorId", "=", query.who);
  if (query.action) select = select.where("staff_audit.action", "=", query.action);
  if (query.learner) select = select.where("staff_audit.targetId", "=", query.learner);
  if (learnerIds) select = select.where("staff_audit.targetId", "in", learnerIds);
  if (query.from) select = select.where("staff_audit.createdAt", ">=", startOfDay(query.from, timeZone));
  if (query.to) select = select.where("staff_audit.createdAt", "<", startOfDay(nextDay(query.to), timeZone));
  const place = query.before || query.after;
  if (place) {
    const { createdAt, id } = readCursor(place);
    select = select.where((eb) =>
      eb(eb.refTuple("staff_audit.createdAt", "staff_audit.id"), query.before ? "<" : ">", eb.tuple(createdAt, id)),
    );
  }
  return select;
}

/** One page of the log for the address's filters, newest first. */
export async function auditPage(db: Db, query: AuditQuery, timeZone: string): Promise<AuditPage> {
  const search = query.q.trim();
  const learnerIds = search ? await searchedLearnerIds(db, search) : null;
  if (learnerIds?.length === 0) return { entries: [], older: null, newer: null, wholeText: null };
  const rows = await auditPageQuery(db, query, timeZone, learnerIds).execute();
  const more = rows.length > auditPageSize;
  const shown = rows.slice(0, auditPageSize);
  if (query.after) shown.reverse();
  const entries = shown.map(({ sentTextStart, ...row }) => ({
    ...row,
    count: Number(row.count),
    sentText: sentTextStart === null ? null : Array.from(sentTextStart).slice(0, sentTextPreview).join(""),
    sentTextCut: sentTextStart !== null && Array.from(sentTextStart).length > sentTextPreview,
  }));
  const first = entries[0];
  const last = entries.at(-1);
  // Read newest first, a further page is older; read from a place forward, it is newer.
  const older = last && (query.after || more) ? cursorOf(last) : null;
  const newer = first && (query.before || (query.after && more)) ? cursorOf(first) : null;
  const whole = query.text && entries.some((entry) => entry.id === query.text && entry.sentTextCut);
  const wholeText = whole ? await sentText(db, query.text) : null;
  return { entries, older, newer, wholeText: wholeText === null ? null : { id: query.text, text: wholeText } };
}

async function sentText(db: Db, auditId: string): Promise<string | null> {
  const row = await db.selectFrom("staff_audit").select("sentText").where("id", "=", auditId).executeTakeFirst();
  return row?.sentText ?? null;
}

/** The name of the learner the log is narrowed to, or null if they are gone. */
export async function learnerNameOf(db: Db, learnerId: string): Promise<string | null> {
  const row = await db
    .selectFrom("user")
    .select(["username", "name", "email"])
    .where("id", "=", learnerId)
    .executeTakeFirst();
  return row ? personName(row) : null;
}

/** The name an actor acted under, for one no longer listed among the people with a role. */
export async function actorNameOf(db: Db, actorId: string): Promise<string | null> {
  const row = await db
    .selectFrom("staff_audit")
    .select("actorName")
    .where("actorId", "=", actorId)
    .orderBy("createdAt", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.actorName ?? null;
}
