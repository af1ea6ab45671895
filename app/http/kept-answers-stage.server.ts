import type http from "node:http";
import { countSignedInMemory } from "~/metrics/metrics.server";
import { isAnonymousRequest } from "./anonymous-request";
import { compressible } from "./encoding.server";
import type { Keep, KeptBody, RouterStage } from "./router-stage.server";
import { contentSecurityPolicy, newNonce } from "./security-headers.server";
import { SignedInResponses, memoizedPaths, type StoredResponse } from "./signed-in-responses.server";
import type { KeptAnswerStamp } from "~/db/change-versions.server";
import type { AnswerSharing } from "./shared-answers.server";

/** What a kept answer does not carry: each answer sets these itself. */
const unkeptHeaders = new Set([
  "set-cookie",
  "content-security-policy",
  "content-length",
  "content-encoding",
  "vary",
  "x-request-id",
]);

export interface KeptAnswersStage {
  /** The session's token when this request's answer may be kept (a GET of a memoized path), else null. */
  tokenFor(req: http.IncomingMessage, method: string, pathname: string): string | null;
  /** From memory while nothing the page shows has changed, else through the router, kept. */
  serve(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    token: string,
    requestId: string,
    rawUrl: string,
  ): Promise<void>;
}

/**
 * The third stage: the signed-in pages (and their data) that are answered from memory while
 * nothing they show has changed (signed-in-responses.server.ts says what keys them).
 */
export function keptAnswersStage(options: {
  /** The session token of a validly signed session cookie, or null. */
  sessionToken: (cookieHeader: string) => string | null;
  /** What this session's kept answers are keyed by, and when it ends (DatabaseHandle.keptAnswerStamp). */
  keptAnswerStamp: (token: string) => Promise<KeptAnswerStamp>;
  /** Until when an answer made for a session that ends then may be reused, or null for none. */
  reusableUntil: (sessionEndsAt: number) => Promise<number | null>;
  secureHeaders: Record<string, string>;
  router: RouterStage;
  /** The other server processes of the machine, which are handed each answer kept here and hand theirs. */
  sharing?: AnswerSharing;
  /** When this process last noticed a write of another program (DatabaseHandle.otherProgramWriteSeenAt). */
  otherProgramWriteSeenAt?: () => number;
  /** Hands the gate the session the stamp was read with, for a render (sessionReadWithStamp). */
  sessionReadWithStamp?: (request: Request, session: Readonly<Record<string, unknown>>) => void;
}): KeptAnswersStage {
  const { secureHeaders, router, sharing } = options;
  const signedInResponses = new SignedInResponses(32 * 1024 * 1024);
  // Another process's answer is kept under its key, which holds the stamp it was made from: only a
  // request whose stamp is the same finds it. Unless that stamp was read before this process
  // noticed a write of another program: the epoch that write moved is this process's own, and
  // an equal number elsewhere need not count the same writes.
  sharing?.onShared((answer) => {
    if (answer.readAt <= (options.otherProgramWriteSeenAt?.() ?? 0)) return;
    if (signedInResponses.get(answer.key, Date.now())) return;
    signedInResponses.keep(answer.key, answer);
  });
  /** Answers being made now, by key: settled once kept, or once their response ends without. */
  const rendering = new Map<string, Promise<void>>();

  /** A kept answer's body for a request with `nonce`, in the encoding it accepts. */
  const bodyFor = (known: StoredResponse, req: http.IncomingMessage, nonce: string): KeptBody => {
    const encoding = compressible.test(known.headers["content-type"] ?? "")
      ? signedInResponses.encodingFor(known, req.headers["accept-encoding"])
      : "identity";
    return { encoding, pieces: signedInResponses.body(known, nonce, encoding) };
  };

  /** A kept answer, written with a nonce of its own; false when there is none for this key. */
  const answerFromMemory = (req: http.IncomingMessage, res: http.ServerResponse, key: string, requestId: string) => {
    const known = signedInResponses.get(key, Date.now());
    if (!known) return false;
    const nonce = newNonce();
    const { encoding, pieces } = bodyFor(known, req, nonce);
    res.writeHead(known.status, {
      ...secureHeaders,
      "Content-Security-Policy": contentSecurityPolicy({ nonce, devSocket: false }),
      "Cache-Control": "private, no-store",
      ...known.headers,
      "X-Request-Id": requestId,
      "Content-Length": String(pieces.reduce((length, piece) => length + piece.length, 0)),
      ...(encoding === "identity" ? {} : { "Content-Encoding": encoding, Vary: "Accept-Encoding" }),
    });
    res.cork();
    for (const piece of pieces) res.write(piece);
    res.end();
    return true;
  };

  return {
    tokenFor(req, method, pathname) {
      return method === "GET" && memoizedPaths.has(pathname) && !isAnonymousRequest(req.headers.cookie)
        ? options.sessionToken(req.headers.cookie ?? "")
        : null;
    },
    async serve(req, res, token, requestId, rawUrl) {
      // Read before anything the answer is made from: what is kept is at least this new.
      const now = Date.now();
      const { stamp, sessionEndsAt, session } = await options.keptAnswerStamp(token);
      const key = signedInResponses.key(token, rawUrl, stamp, now);
      let served = answerFromMemory(req, res, key, requestId);
      // The same answer being made for an earlier request (read with the same stamp, so nothing
      // it shows has changed since): wait for it rather than make it again. After a change, a
      // session's requests in flight (a staff member's tabs, a page and its data) render once.
      const pending = served ? undefined : rendering.get(key);
      if (pending) {
        await pending;
        served = answerFromMemory(req, res, key, requestId);
      }
      // Counted once per request: a hit when answered from memory, after waiting or not.
      countSignedInMemory(served);
      if (served) return;
      // Waiters that found no kept answer make their own, unannounced: nobody waits on them. Nor
      // on a request whose client left while its stamp was read: its "close" has been and gone,
      // and the router answers no one, so nothing would let the waiters go.
      let done = () => {};
      if (!pending && !res.closed) {
        const made = new Promise<void>((resolve) => {
          done = () => {
            if (rendering.get(key) === made) rendering.delete(key);
            resolve();
          };
        });
        rendering.set(key, made);
        // An answer that is not kept (a redirect, a failure, a client gone) lets the waiters go too.
        res.once("close", done);
      }
      const withSession = options.sessionReadWithStamp;
      const prepare = session && withSession ? (request: Request) => withSession(request, session) : undefined;
      const keep: Keep = async (nonce, response, body) => {
        try {
          // The session as the stamp read it: ended or extended since, the stamp the next request
          // reads differs or the answer is kept a little less long than it could be, never longer.
          const validUntil = sessionEndsAt === null ? null : await options.reusableUntil(sessionEndsAt);
          if (validUntil === null) return undefined;
          const headers: Record<string, string> = {};
          for (const [name, value] of response.headers) if (!unkeptHeaders.has(name)) headers[name] = value;
          const kept = signedInResponses.set(key, { status: response.status, headers, body, nonce, validUntil });
          if (!kept) return undefined;
          sharing?.share({ key, status: response.status, headers, parts: kept.parts, validUntil, readAt: now });
          // This request's answer too goes out as the next ones will: compressed once, not twice.
          return bodyFor(kept, req, nonce);
        } finally {
          done();
        }
      };
      router.serve(req, res, requestId, rawUrl.split("?")[0]!, keep, prepare);
    },
  };
}
