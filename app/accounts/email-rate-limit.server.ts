import { sql } from "kysely";
import type { Db } from "~/db/database.server";

export type AttemptKind = "sign-in" | "sign-up" | "reset";

/** Attempts allowed per email address, on top of better-auth's per-IP limits. */
export const emailLimits: Record<AttemptKind, { max: number; windowMs: number }> = {
  // Enough for a person mistyping a password; too few for guessing one.
  "sign-in": { max: 10, windowMs: 15 * 60_000 },
  "sign-up": { max: 5, windowMs: 60 * 60_000 },
  // Each one sends an email: keep an address from being flooded.
  reset: { max: 3, windowMs: 60 * 60_000 },
};

/**
 * Counts one attempt for this email and says whether it is within the limit. One statement
 * (insert or update, returning the new count), so concurrent requests and several instances
 * count correctly.
 */
export async function consumeEmailAttempt(
  db: Db,
  kind: AttemptKind,
  email: string,
  now = Date.now(),
): Promise<boolean> {
  const { max, windowMs } = emailLimits[kind];
  const key = `${kind}:${email.trim().toLowerCase()}`;
  const expired = sql<boolean>`"emailRateLimit"."windowStart" <= ${now - windowMs}`;
  const row = await db
    .insertInto("emailRateLimit")
    .values({ key, count: 1, windowStart: now })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql<number>`case when ${expired} then 1 else "emailRateLimit"."count" + 1 end`,
        windowStart: sql<number>`case when ${expired} then ${now} else "emailRateLimit"."windowStart" end`,
      }),
    )
    .returning("count")
    .executeTakeFirstOrThrow();
  return Number(row.count) <= max;
}
