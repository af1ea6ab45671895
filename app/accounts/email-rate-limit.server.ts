import type { Db } from "~/db/database.server";
import { consumeAttempt, type Limit } from "~/security/rate-limit.server";

export type AttemptKind = "sign-in" | "sign-up" | "reset";

/**
 * Attempts per email address, on top of better-auth's per-IP limits. Counted twice: per email
 * and client address, strictly (a person mistyping gets enough, a guesser far too few), and per
 * email alone, far higher (guessing spread over many addresses). So nobody can lock the owner
 * out from another address: the strict counter is theirs alone.
 */
export const emailLimits: Record<AttemptKind, { perAddress: Limit; overall: Limit }> = {
  "sign-in": {
    perAddress: { max: 10, windowMs: 15 * 60_000 },
    overall: { max: 100, windowMs: 60 * 60_000 },
  },
  "sign-up": {
    perAddress: { max: 5, windowMs: 60 * 60_000 },
    overall: { max: 50, windowMs: 60 * 60_000 },
  },
  // Each one sends an email: keep an address from being flooded.
  reset: {
    perAddress: { max: 3, windowMs: 60 * 60_000 },
    overall: { max: 10, windowMs: 60 * 60_000 },
  },
};

/** Password checks of a signed-in user (verify-password, change-password), per user. */
export const passwordCheckLimit: Limit = emailLimits["sign-in"].perAddress;

/** Counts one attempt for this email from this client and says whether both limits allow it. */
export async function consumeEmailAttempt(
  db: Db,
  kind: AttemptKind,
  email: string,
  clientIp: string,
  now = Date.now(),
): Promise<boolean> {
  const normalized = email.trim().toLowerCase();
  const limits = emailLimits[kind];
  const [fromAddress, overall] = await Promise.all([
    consumeAttempt(db, `${kind}:${normalized}:${clientIp}`, limits.perAddress, now),
    consumeAttempt(db, `${kind}:${normalized}`, limits.overall, now),
  ]);
  return fromAddress && overall;
}
