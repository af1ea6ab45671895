import type http from "node:http";
import {
  assignmentUploadPath,
  importUploadPaths,
  photoUploadPath,
  resumeUploadPath,
  siteEditorPaths,
} from "~/uploads/upload-paths";

/** The HTTP layer's limits; docs/security.md lists them with their reasons. */
export const requestLimits = {
  /**
   * The largest request body (JSON or form) the app reads. The largest legitimate one is a staff
   * message of 20,000 characters (at most 80 KB as UTF-8, a little more as JSON); 1 MiB leaves
   * room without letting one request hold much memory.
   */
  maxBodyBytes: 1024 * 1024,
  /** The request line and headers must arrive within this (Node answers 408). */
  headersTimeoutMs: 10_000,
  /** A capped body must arrive whole within this, counted from the end of the headers. */
  bodyTimeoutMs: 30_000,
  /** A streamed upload may go this long without a byte before it is ended (slow but moving is fine). */
  uploadIdleTimeoutMs: 60_000,
  /**
   * After a 413, up to this much of the body is read and dropped, for at most this long, so the
   * client reads the answer and keeps its connection; a longer or slower body closes it.
   */
  refusedBodyLingerMs: 2_000,
  refusedBodyLingerBytes: 2 * 1024 * 1024,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
} as const;

/**
 * The only requests whose bodies are not capped and read by the HTTP layer: each reads its own
 * body, with its own limit, as a stream. They get the upload idle timeout instead of the body
 * timeout. Matched against the normalized path (after dot segments are resolved).
 */
export const streamedUploads = [
  // tus resumable resume uploads: @tus/server enforces RESUME_MAX_MB.
  { methods: "any", path: resumeUploadPath, subpaths: true },
  // tus uploads of assignment files: @tus/server enforces ASSIGNMENT_MAX_MB.
  { methods: "any", path: assignmentUploadPath, subpaths: true },
  // The profile photo: the learner API reads at most photoMaxBytes (5 MB) itself.
  { methods: ["POST"], path: photoUploadPath, subpaths: false },
  // The learner import's CSV (the page, and its data request): the admin's action passes the
  // gate first, then reads at most the file limit (5 MB) and the form's few fields.
  ...importUploadPaths.map((path) => ({ methods: ["POST"], path, subpaths: false }) as const),
  // The public site's editor (a logo or picture of up to 5 MB): its action reads its own body
  // after the gate, at most the image limit and a few small fields.
  ...siteEditorPaths.map((path) => ({ methods: ["POST"], path, subpaths: false }) as const),
] as const;

export function isStreamedUpload(method: string, pathname: string): boolean {
  return streamedUploads.some(
    (upload) =>
      (upload.methods === "any" || (upload.methods as readonly string[]).includes(method)) &&
      (pathname === upload.path || (upload.subpaths && pathname.startsWith(`${upload.path}/`))),
  );
}

export type BodyOutcome =
  | { ok: true; body: Buffer<ArrayBuffer> }
  | { ok: false; status: 408 | 413; message: string }
  | { ok: false; status: "aborted" };

export const bodyMessages = {
  tooLarge: `The request is too large. The limit is ${requestLimits.maxBodyBytes / 1024 / 1024} MB.`,
  tooSlow: `The request took too long to arrive (more than ${requestLimits.bodyTimeoutMs / 1000} seconds).`,
  uploadStalled: `The upload stopped: nothing arrived for ${requestLimits.uploadIdleTimeoutMs / 1000} seconds. Please try again.`,
} as const;

/**
 * Reads a whole request body of at most maxBytes within timeoutMs. A declared Content-Length
 * over the cap is refused before a byte is read; a chunked body is refused as soon as it passes
 * the cap, so at most maxBytes (plus one chunk) is ever held.
 */
export function readCappedBody(
  req: http.IncomingMessage,
  maxBytes = requestLimits.maxBodyBytes,
  timeoutMs = requestLimits.bodyTimeoutMs,
): Promise<BodyOutcome> {
  const declared = Number(req.headers["content-length"]);
  if (declared > maxBytes) return Promise.resolve({ ok: false, status: 413, message: bodyMessages.tooLarge });
  // Sent without a body (the server's optimizeEmptyRequests): it arrives ended, with no events.
  if (req.readableEnded) return Promise.resolve({ ok: true, body: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: BodyOutcome) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish({ ok: false, status: 413, message: bodyMessages.tooLarge });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks, size) });
    const onClose = () => finish({ ok: false, status: "aborted" });
    const timer = setTimeout(() => finish({ ok: false, status: 408, message: bodyMessages.tooSlow }), timeoutMs);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
  });
}
