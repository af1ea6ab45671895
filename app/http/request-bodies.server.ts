import type http from "node:http";
import { Readable, type Duplex } from "node:stream";
import { sendProblem, writeProblem } from "./problem.server";
import { bodyMessages, isStreamedUpload, readCappedBody, requestLimits } from "./request-limits.server";

/**
 * The body of a request other than GET or HEAD, for the router, within the limits
 * (request-limits.server.ts): a streamed upload as a web stream, anything else read whole up to
 * the cap. Null when the request was refused (and answered) or the client went away.
 */
export async function routerBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  method: string,
  pathname: string,
): Promise<ReadableStream | Buffer<ArrayBuffer> | null> {
  // A request sent without a body arrived ended (optimizeEmptyRequests): nothing to stream.
  if (isStreamedUpload(method, pathname) && !req.readableEnded) {
    endStalledUpload(req, res, pathname);
    return Readable.toWeb(req) as ReadableStream;
  }
  const outcome = await readCappedBody(req);
  if (outcome.ok) return outcome.body;
  if (outcome.status === "aborted") return null;
  if (outcome.status === 413) refuseBodyTooLarge(req, res, outcome.message, pathname);
  else sendProblem(res, outcome.status, outcome.message, pathname, { Connection: "close" });
  return null;
}

/**
 * A 413 while the client is usually still sending. Node closes a connection as soon as a
 * response ends before its request body was read, and a client still writing may then meet the
 * reset before it reads the answer. So the answer is sent at once but the response ends only
 * when the body is in (the connection stays usable), or once refusedBodyLingerBytes more were
 * dropped or refusedBodyLingerMs passed, when the connection closes.
 */
function refuseBodyTooLarge(req: http.IncomingMessage, res: http.ServerResponse, message: string, pathname: string) {
  writeProblem(res, 413, message, pathname, {});
  if (req.complete) {
    res.end();
    return;
  }
  let dropped = 0;
  const finish = () => {
    clearTimeout(linger);
    req.off("data", drop).off("end", finish).off("close", finish);
    // Not read further: the client's sending stalls until the connection closes.
    if (!req.complete) req.pause();
    if (!res.writableEnded) res.end();
  };
  const linger = setTimeout(finish, requestLimits.refusedBodyLingerMs);
  const drop = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > requestLimits.refusedBodyLingerBytes) finish();
  };
  req.on("data", drop).once("end", finish).once("close", finish);
}

/**
 * A streamed upload (see streamedUploads) may be slow but not stalled: the socket's idle timer
 * ends it once nothing arrived for uploadIdleTimeoutMs. The timer stops when the body is in.
 */
function endStalledUpload(req: http.IncomingMessage, res: http.ServerResponse, pathname: string) {
  req.setTimeout(requestLimits.uploadIdleTimeoutMs, () => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.setHeader("Connection", "close");
    sendProblem(res, 408, bodyMessages.uploadStalled, pathname);
  });
  req.once("end", () => {
    // After the response, Node's own keep-alive timer owns the socket's timeout.
    if (!res.writableFinished) req.socket.setTimeout(0);
  });
}

/**
 * The rest of a streamed upload that the route did not read, once its answer is out: dropped
 * for up to refusedBodyLingerBytes and refusedBodyLingerMs, so a client that sent a small body
 * reads the answer and keeps its connection; a longer or slower one (a 50 MB file refused after
 * 5 MB) has its connection closed, so it stops sending.
 */
export function dropUnreadUpload(req: http.IncomingMessage, socket: Duplex | null): void {
  if (req.complete || !socket) return;
  if (req.destroyed) {
    // The route gave up on it part way (its stream cancelled): nothing reads the socket any more.
    setTimeout(() => socket.destroy(), requestLimits.refusedBodyLingerMs).unref();
    return;
  }
  let dropped = 0;
  const finish = () => {
    clearTimeout(linger);
    req.off("data", drop).off("end", finish).off("close", finish);
    if (!req.complete) socket.destroy();
  };
  const linger = setTimeout(finish, requestLimits.refusedBodyLingerMs);
  const drop = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > requestLimits.refusedBodyLingerBytes) finish();
    // The web stream the route stopped reading pauses the request when its queue is full.
    else req.resume();
  };
  req.on("data", drop).once("end", finish).once("close", finish);
  req.resume();
}
