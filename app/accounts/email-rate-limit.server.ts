import type { Db } from "~/db/database.server";
import { consumeAttempt, type Limit } from "~/security/rate-limit.server";

export type AttemptKind = "sign-in" | "sign-up" | "reset";

/** Attempts allowed per email address, on top of better-auth's per-IP limits. */
export const emailLimits: Record<AttemptKind, Limit> = {
  // Enough for a person mistyping a password; too few for guessing one.
  "sign-in": { max: 10, windowMs: 15 * 60_000 },
  "sign-up": { max: 5, windowMs: 60 * 60_000 },
  // Each one sends an email: keep an address from being flooded.
  reset: { max: 3, windowMs: 60 * 60_000 },
};

/** Counts one attempt for this email and says whether it is within the limit. */
export async function consumeEmailAttempt(
  db: Db,
  kind: AttemptKind,
  email: string,
  now = Date.now(),
): Promise<boolean> {
  return consumeAttempt(db, `${kind}:${email.trim().toLowerCase()}`, emailLimits[kind], now);
}
