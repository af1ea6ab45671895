import { compiledOnce } from "~/db/compiled-once.server";
import type { Db } from "~/db/database.server";
import { consumeAttempt, type Limit } from "~/security/rate-limit.server";

/**
 * What the public verify page shows of a document: who holds it, what it is, who issued it,
 * its dates and its checksum. Never the pay, the offer letter's body or anyone's account.
 */
export interface VerifiedDocument {
  code: string;
  kind: "certificate" | "offer-letter";
  holderName: string;
  title: string;
  description: string | null;
  issuerName: string;
  issuerUrl: string;
  issuedOn: string;
  validUntil: string | null;
  hours: number | null;
  startDate: string | null;
  location: string | null;
  replyBy: string | null;
  response: "accepted" | "declined" | null;
  signatoryName: string | null;
  signatoryTitle: string | null;
  sha256: string;
  jws: string | null;
  reissuedAt: string | null;
  revokedAt: string | null;
  revokeReason: string | null;
}

/**
 * Codes that match no document, per client address. 80 random bits can't be guessed anyway;
 * this keeps anyone from trying at scale. Past the limit every look-up from that address is
 * refused until the window ends, found or not, so a 200 among 429s gives nothing away.
 */
export const wrongGuessLimit: Limit = { max: 20, windowMs: 10 * 60_000 };

/**
 * Documents as the page shows them, by code, each with the `updatedAt` it was read at. Every
 * request still asks the database for the current `updatedAt` (one indexed read, so a change
 * made on any instance shows at once); only the whole row's read is saved. Least recently used
 * go first past `max`.
 */
export class VerifiedDocuments {
  private readonly entries = new Map<string, { updatedAt: string; document: VerifiedDocument }>();
  constructor(private readonly max: number) {}

  get(code: string, updatedAt: string): VerifiedDocument | undefined {
    const entry = this.entries.get(code);
    if (!entry || entry.updatedAt !== updatedAt) return undefined;
    this.entries.delete(code);
    this.entries.set(code, entry);
    return entry.document;
  }

  set(code: string, updatedAt: string, document: VerifiedDocument): void {
    this.entries.delete(code);
    this.entries.set(code, { updatedAt, document });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

const cache = new VerifiedDocuments(2_000);

/** The document's `updatedAt` and the client's wrong-guess counter, in one statement. */
const lookup = compiledOnce((db: Db, code: string, guessKey: string) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom("document").select("updatedAt").where("code", "=", code).as("updatedAt"),
    eb.selectFrom("rate_limit").select("count").where("key", "=", guessKey).as("guesses"),
    eb.selectFrom("rate_limit").select("windowStart").where("key", "=", guessKey).as("guessWindowStart"),
  ]),
);

const documentRow = compiledOnce((db: Db, code: string) =>
  db
    .selectFrom("document")
    .select([
      "code",
      "kind",
      "holderName",
      "title",
      "description",
      "issuerName",
      "issuerUrl",
      "issuedOn",
      "validUntil",
      "hours",
      "startDate",
      "location",
      "replyBy",
      "response",
      "signatoryName",
      "signatoryTitle",
      "sha256",
      "jws",
      "reissuedAt",
      "revokedAt",
      "revokeReason",
      "updatedAt",
    ])
    .where("code", "=", code),
);

/** The wrong-guess counter's key for a client address. */
export const guessKey = (address: string) => `verify-guess:${address}`;

export type VerifyOutcome =
  { found: true; document: VerifiedDocument } | { found: false; reason: "not-found" | "too-many" };

/**
 * The document with this code (in its printed form) as the verify page shows it, read through
 * the cache, or why not: unknown (and counted against the client), or the client is over its
 * limit of wrong guesses.
 */
export async function verifyDocument(db: Db, code: string, address: string, now = Date.now()): Promise<VerifyOutcome> {
  const key = guessKey(address);
  const [probe] = await lookup(db, code, key);
  const guesses = Number(probe?.guesses ?? 0);
  const windowOpen = Number(probe?.guessWindowStart ?? 0) > now - wrongGuessLimit.windowMs;
  if (windowOpen && guesses >= wrongGuessLimit.max) return { found: false, reason: "too-many" };
  const updatedAt = probe?.updatedAt;
  if (!updatedAt) {
    const allowed = await consumeAttempt(db, key, wrongGuessLimit, now);
    return { found: false, reason: allowed ? "not-found" : "too-many" };
  }
  const known = cache.get(code, updatedAt);
  if (known) return { found: true, document: known };
  const [row] = await documentRow(db, code);
  // Deleted in between (its learner's account went): as if it never was.
  if (!row) return { found: false, reason: "not-found" };
  const { updatedAt: readAt, ...fields } = row;
  const document: VerifiedDocument = { ...fields, hours: fields.hours === null ? null : Number(fields.hours) };
  cache.set(code, readAt, document);
  return { found: true, document };
}
