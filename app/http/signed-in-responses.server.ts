import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { ByteCappedCache } from "./byte-capped-cache";
import { acceptsGzip, pickEncoding, type Encoding } from "./encoding.server";
import { deflated, splicedGzip } from "./spliced-gzip.server";

/**
 * The signed-in pages (and their loader data) that are answered from memory while nothing they
 * show has changed. A page's answer follows from the session, the address, the data and the
 * time of day, so it is kept under all four:
 * - the session's token (one person's answers are never another's);
 * - the address, query included;
 * - the session's stamp, read from the database before anything else of the request
 *   (`DatabaseHandle.keptAnswerStamp`, decision 016): the role and the versions of what the
 *   person's pages show, which every committed write that changes them raises in its own
 *   transaction, on any instance or process, so a sign-out, a revocation, a role change or a
 *   new notice is seen on that person's next request everywhere;
 * - the minute, for what the clock alone changes (Day N, an offer past its reply-by date),
 *   shifted per session (`clockMinute`), so that not every kept answer is made again at once
 *   when the minute turns.
 * Each path listed here has loaders that read nothing else (no header, no rate limit).
 */
export const memoizedPaths: ReadonlySet<string> = new Set([
  "/",
  "/_root.data",
  "/dashboard",
  "/dashboard.data",
  "/settings",
  "/settings.data",
  "/staff",
  "/staff.data",
]);

export interface StoredResponse {
  status: number;
  /** The router's headers, less those every answer sets itself (CSP, cookies, length, encoding). */
  headers: Record<string, string>;
  /** The body cut where the request's CSP nonce stood: each answer joins them with its own. */
  parts: Buffer[];
  /** The session's end, less better-auth's refresh window: after it, the router answers again. */
  validUntil: number;
  /** Compressed bodies, kept for answers without a nonce (the loader data). */
  compressed: Partial<Record<Exclude<Encoding, "identity">, Buffer>>;
  /**
   * The parts in stretches: a long part alone, consecutive short ones together. A page's nonce
   * stands in every script and preload tag (the dashboard: 49 parts, most under 100 bytes); each
   * answer joins a run of short parts with its nonce into one buffer, so that it writes a few
   * pieces rather than a hundred, and only long parts are deflated (a deflate stream costs tens
   * of microseconds to start, more than a short part saves).
   */
  stretches: Buffer[][];
  /** For answers with a nonce (the pages): each long stretch deflated once, joined per answer. */
  deflatedStretches?: (Buffer | undefined)[];
}

/**
 * The minute a session's answers are kept in: a minute long, but starting at a second of its
 * own (from the token), so that answers made for a few hundred people at once expire spread over
 * the minute rather than together (a burst of renders every minute, on a busy day).
 */
export function clockMinute(token: string, now: number): number {
  let shift = 0;
  for (let i = 0; i < token.length; i++) shift = (shift * 31 + token.charCodeAt(i)) % 60_000;
  return Math.floor((now + shift) / 60_000);
}

export class SignedInResponses {
  private readonly entries: ByteCappedCache<StoredResponse>;

  constructor(maxBytes: number) {
    this.entries = new ByteCappedCache(maxBytes, sizeOf);
  }

  key(token: string, url: string, stamp: string, now: number): string {
    return createHash("sha256")
      .update(`${token}\u0000${url}\u0000${stamp}\u0000${clockMinute(token, now)}`)
      .digest("base64");
  }

  /** A stored answer still valid at `now`, or undefined. */
  get(key: string, now: number): StoredResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.validUntil > now) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Keeps an answer made with `nonce` (the body cut where the nonce stood); returns what is kept,
   * or undefined when it is too large to keep.
   */
  set(
    key: string,
    answer: { status: number; headers: Record<string, string>; body: Buffer; nonce: string; validUntil: number },
  ): StoredResponse | undefined {
    const parts = split(answer.body, Buffer.from(answer.nonce));
    return this.keep(key, { status: answer.status, headers: answer.headers, parts, validUntil: answer.validUntil });
  }

  /** Keeps an answer already cut where its nonce stood (one another server process made). */
  keep(
    key: string,
    answer: Pick<StoredResponse, "status" | "headers" | "parts" | "validUntil">,
  ): StoredResponse | undefined {
    const entry: StoredResponse = {
      status: answer.status,
      headers: answer.headers,
      parts: answer.parts,
      stretches: stretchesOf(answer.parts),
      validUntil: answer.validUntil,
      compressed: {},
    };
    return this.entries.set(key, entry) ? entry : undefined;
  }

  /**
   * The encoding to answer in: a page with a nonce goes in gzip, joined from parts compressed
   * once (spliced-gzip.server.ts), whatever better the client accepts.
   */
  encodingFor(entry: StoredResponse, acceptEncoding: string | undefined): Encoding {
    if (entry.parts.length === 1) return pickEncoding(acceptEncoding);
    return acceptsGzip(acceptEncoding) ? "gzip" : "identity";
  }

  /**
   * The body to send with this nonce and encoding (`encodingFor`), as the pieces to write in
   * order (uncompressed: the long parts themselves, the short ones joined with the nonce).
   */
  body(entry: StoredResponse, nonce: string, encoding: Encoding): Buffer[] {
    const slot = Buffer.from(nonce);
    const plain = entry.stretches.map((stretch) => joined(stretch, slot));
    if (encoding === "identity") return plain.flatMap((stretch, index) => (index === 0 ? [stretch] : [slot, stretch]));
    if (entry.parts.length > 1) {
      if (encoding !== "gzip") throw new Error("A page with a nonce is answered in gzip or uncompressed.");
      if (!entry.deflatedStretches) {
        entry.deflatedStretches = entry.stretches.map((stretch) =>
          stretch.length === 1 && stretch[0]!.length >= shortPart ? deflated(stretch[0]!) : undefined,
        );
        this.entries.grew(entry.deflatedStretches.reduce((sum, part) => sum + (part?.length ?? 0), 0));
      }
      return splicedGzip(plain, entry.deflatedStretches, slot);
    }
    const known = entry.compressed[encoding];
    if (known) return [known];
    const body = compress(entry.parts[0]!, encoding);
    entry.compressed[encoding] = body;
    this.entries.grew(body.length);
    return [body];
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The same settings as the answers compressed on their way out (router-stage.server.ts). */
function compress(body: Buffer, encoding: Exclude<Encoding, "identity">): Buffer {
  return encoding === "br"
    ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
    : zlib.gzipSync(body, { level: 6 });
}

/** A part shorter than this is joined with its neighbours and the nonce for each answer. */
const shortPart = 1024;

/** Consecutive short parts together, each long part alone (StoredResponse.stretches). */
function stretchesOf(parts: readonly Buffer[]): Buffer[][] {
  const stretches: Buffer[][] = [];
  let run: Buffer[] = [];
  for (const part of parts) {
    if (part.length < shortPart) {
      run.push(part);
      continue;
    }
    if (run.length > 0) stretches.push(run);
    stretches.push([part]);
    run = [];
  }
  if (run.length > 0) stretches.push(run);
  return stretches;
}

/** The parts of a stretch joined with the nonce: the part itself when it is alone. */
const joined = (stretch: Buffer[], slot: Buffer): Buffer =>
  stretch.length === 1
    ? stretch[0]!
    : Buffer.concat(stretch.flatMap((part, index) => (index === 0 ? [part] : [slot, part])));

/** The buffer cut at every occurrence of `separator` (a nonce: 128 random bits, found nowhere else). */
function split(buffer: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = buffer.indexOf(separator); at !== -1; at = buffer.indexOf(separator, from)) {
    parts.push(buffer.subarray(from, at));
    from = at + separator.length;
  }
  parts.push(buffer.subarray(from));
  return parts;
}

const sizeOf = (entry: StoredResponse) =>
  entry.parts.reduce((sum, part) => sum + part.length, 0) +
  (entry.compressed.br?.length ?? 0) +
  (entry.compressed.gzip?.length ?? 0) +
  (entry.deflatedStretches?.reduce((sum, part) => sum + (part?.length ?? 0), 0) ?? 0) +
  512;
