import { sql } from "kysely";
import type { Db } from "~/db/database.server";

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * Counts one attempt against `key` and says whether it is within `limit`. One statement
 * (insert or update, returning the new count), so concurrent requests and several instances
 * sharing the database count correctly. Keys name the limit and its subject
 * ("task-link:<learner id>"); they are stored, so never put a secret in one.
 */
export async function consumeAttempt(db: Db, key: string, limit: Limit, now = Date.now()): Promise<boolean> {
  const expired = sql<boolean>`"rate_limit"."windowStart" <= ${now - limit.windowMs}`;
  const row = await db
    .insertInto("rate_limit")
    .values({ key, count: 1, windowStart: now, expiresAt: now + limit.windowMs })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql<number>`case when ${expired} then 1 else "rate_limit"."count" + 1 end`,
        windowStart: sql<number>`case when ${expired} then ${now} else "rate_limit"."windowStart" end`,
        expiresAt: sql<number>`case when ${expired} then ${now + limit.windowMs} else "rate_limit"."expiresAt" end`,
      }),
    )
    .returning("count")
    .executeTakeFirstOrThrow();
  return Number(row.count) <= limit.max;
}

/** How long better-auth's own per-IP rows can matter: its longest window is a minute. */
const authRowsKeptMs = 10 * 60_000;

/** Deletes counters whose window has ended (ours and better-auth's); returns how many. */
export async function purgeExpiredRateLimits(db: Db, now = Date.now()): Promise<number> {
  const ours = await db.deleteFrom("rate_limit").where("expiresAt", "<=", now).executeTakeFirst();
  const auth = await db
    .deleteFrom("rateLimit")
    .where("lastRequest", "<", now - authRowsKeptMs)
    .executeTakeFirst();
  return Number(ours.numDeletedRows) + Number(auth.numDeletedRows);
}

/** Changes one signed-in person may make per minute, whatever they change. */
export const writeLimits = {
  /** Task links, photo, resume, marking read: far above what a person clicks. */
  learner: { max: 60, windowMs: 60_000 },
  /** Sends, clears, offer letters, roles: a busy trainer working through a list. */
  staff: { max: 120, windowMs: 60_000 },
  /** A bulk send reaches every matching learner at once. */
  bulkSend: { max: 10, windowMs: 60_000 },
} satisfies Record<string, Limit>;

export const tooManyRequests = "Too many requests. Please wait a minute and try again.";
