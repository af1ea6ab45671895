import type http from "node:http";
import { once } from "node:events";
import type { Duplex } from "node:stream";
import zlib from "node:zlib";
import { RouterContextProvider, createRequestHandler, type ServerBuild } from "react-router";
import type { Logger } from "~/logging/logger.server";
import { afterWaitingRequests } from "./after-waiting-requests.server";
import { addressFromProxyHeader } from "./client-address";
import { cspNonceContext } from "./csp";
import { compressible, pickEncoding, type Encoding } from "./encoding.server";
import { answerFailure, sendProblem } from "./problem.server";
import { dropUnreadUpload, routerBody } from "./request-bodies.server";
import { CLIENT_IP_HEADER, clientAddressContext, requestIdContext, socketAddressContext } from "./request-context";
import { parseTarget } from "./request-target.server";
import { contentSecurityPolicy, newNonce } from "./security-headers.server";

/**
 * Keeps a router answer (a kept signed-in answer): its nonce, response and whole body. Returns
 * the answer as it is sent from memory (so that it is compressed once, for this request and the
 * next), or undefined when it was not kept.
 */
export type Keep = (nonce: string, response: Response, body: Buffer) => Promise<KeptBody | undefined>;

/** A kept answer's body for one request: its encoding and the pieces to write in order. */
export interface KeptBody {
  encoding: Encoding;
  pieces: Buffer[];
}

export interface RouterStage {
  /**
   * Answers through React Router, with a nonce of its own, after the request's target and body
   * pass the limits. Returns the request's context, where the matched route's pattern will be
   * (the metrics' route label), or "refused".
   */
  serve(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    requestId: string,
    pathname: string,
    keep?: Keep,
    /** Told of the request the router is handed, before it answers (the session read with the stamp). */
    prepare?: (request: Request) => void,
  ): string | RouterContextProvider;
  /** A public page as an anonymous visitor sees it (no cookies, no nonce): the page cache's renderer. */
  renderAnonymous(path: string): Promise<Response>;
}

/** The last stage: React Router's request handler, for everything no earlier stage answered. */
export function routerStage(options: {
  /** The server build, or (in development) a function that loads the current one. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development" | "test";
  appUrl: string;
  trustProxyHeader: string | undefined;
  trustProxyHops: number;
  secureHeaders: Record<string, string>;
  /** Development: the policy lets Vite's HMR socket connect. */
  devSocket: boolean;
  logger: Logger;
}): RouterStage {
  const { appUrl, secureHeaders, devSocket, logger } = options;
  const handle = createRequestHandler(options.build, options.mode);
  const appOrigin = new URL(appUrl).origin;

  const makeContext = (nonce: string | null, address: string, socketAddress: string, requestId: string) => {
    const context = new RouterContextProvider();
    context.set(cspNonceContext, nonce);
    context.set(clientAddressContext, address);
    context.set(socketAddressContext, socketAddress);
    context.set(requestIdContext, requestId);
    return context;
  };
  const clientAddress = (req: http.IncomingMessage) =>
    (options.trustProxyHeader &&
      addressFromProxyHeader(req.headers[options.trustProxyHeader], options.trustProxyHops)) ||
    req.socket.remoteAddress ||
    "unknown";

  return {
    serve(req, res, requestId, pathname, keep, prepare) {
      const method = req.method ?? "GET";
      const nonce = newNonce();
      for (const [name, value] of Object.entries(secureHeaders)) res.setHeader(name, value);
      res.setHeader("Content-Security-Policy", contentSecurityPolicy({ nonce, devSocket }));
      res.setHeader("X-Request-Id", requestId);

      const target = parseTarget(req, appOrigin);
      if (!target.ok) {
        logger.warn({ reqId: requestId, method, path: pathname, reason: target.message }, "bad request");
        sendProblem(res, target.status, target.message, pathname, target.headers);
        return "refused";
      }
      const context = makeContext(nonce, clientAddress(req), req.socket.remoteAddress ?? "unknown", requestId);
      answer(req, res, target.url, handle, context, nonce, keep, prepare).catch((error: unknown) =>
        answerFailure(logger, res, requestId, error),
      );
      return context;
    },
    renderAnonymous: (path) =>
      handle(
        new Request(`${appUrl}${path}`, { headers: { accept: "text/html", "user-agent": "upskill-page-cache" } }),
        makeContext(null, "127.0.0.1", "127.0.0.1", "page-cache"),
      ),
  };
}

async function answer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  handle: (request: Request, context: RouterContextProvider) => Promise<Response>,
  context: RouterContextProvider,
  nonce: string,
  keep: Keep | undefined,
  prepare: ((request: Request) => void) | undefined,
) {
  const method = req.method ?? "GET";
  // Taken now: a request whose body the route cancels lets go of its socket.
  const connection: Duplex | null = req.socket;
  let body: ReadableStream | Buffer<ArrayBuffer> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const read = await routerBody(req, res, method, url.pathname);
    if (read === null) return;
    body = read;
  }
  const controller = new AbortController();
  // Only a client that left early needs aborting; an abort per finished response costs a DOMException.
  // A change runs to its end all the same: its answer is kept for a retry with its key.
  res.on("close", () => {
    if (!res.writableFinished && (method === "GET" || method === "HEAD")) controller.abort();
  });
  const request = webRequest(req, url, method, body, controller.signal, context.get(clientAddressContext));
  prepare?.(request);
  // The answers from memory that came in with this request go out before its render or change.
  await afterWaitingRequests();
  const response = await handle(request, context);
  // A stalled upload was already answered (endStalledUpload) or the client went away.
  if (res.headersSent || res.destroyed) return;
  // A streamed upload answered before its body was read (refused, or too large part way).
  if (body instanceof ReadableStream) res.once("finish", () => dropUnreadUpload(req, connection));
  await writeResponse(req, res, method, response, keep && ((kept, whole) => keep(nonce, kept, whole)));
}

/** The request as the router sees it: on APP_URL's origin, with the client's address in a header only we set. */
function webRequest(
  req: http.IncomingMessage,
  url: URL,
  method: string,
  body: ReadableStream | Buffer<ArrayBuffer> | undefined,
  signal: AbortSignal,
  address: string,
): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    // Only this server says who the client is; a client-sent value is dropped.
    if (req.rawHeaders[i]!.toLowerCase() === CLIENT_IP_HEADER) continue;
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  headers.set(CLIENT_IP_HEADER, address);
  return new Request(url, {
    method,
    headers,
    signal,
    ...(body instanceof ReadableStream ? { body, duplex: "half" } : body ? { body } : {}),
  } as RequestInit);
}

/** Writes the router's response: its cookies, no-store unless it said otherwise, compressed where it pays. */
async function writeResponse(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  method: string,
  response: Response,
  keep: ((response: Response, body: Buffer) => Promise<KeptBody | undefined>) | undefined,
) {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!res.hasHeader("cache-control")) res.setHeader("Cache-Control", "private, no-store");

  if (!response.body || method === "HEAD") {
    res.end();
    return;
  }
  let chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = response.body as unknown as AsyncIterable<Uint8Array>;
  if (keep && response.status === 200 && cookies.length === 0) {
    const whole = Buffer.from(await response.arrayBuffer());
    const kept = await keep(response, whole);
    if (kept) {
      writePieces(res, kept);
      return;
    }
    chunks = [whole];
  }
  const contentType = response.headers.get("content-type") ?? "";
  const encoding =
    compressible.test(contentType) && !response.headers.has("content-encoding")
      ? pickEncoding(req.headers["accept-encoding"])
      : "identity";
  let sink: NodeJS.WritableStream = res;
  if (encoding !== "identity") {
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Vary", "Accept-Encoding");
    res.removeHeader("Content-Length");
    const compressor =
      encoding === "br"
        ? zlib.createBrotliCompress({
            flush: zlib.constants.BROTLI_OPERATION_FLUSH,
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
          })
        : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, level: 6 });
    compressor.pipe(res);
    sink = compressor;
  }
  try {
    for await (const chunk of chunks) {
      if (!sink.write(chunk)) await once(sink, "drain");
    }
  } finally {
    sink.end();
  }
}

/** A kept answer's body, written as the answers from memory are (its length known). */
export function writePieces(res: http.ServerResponse, { encoding, pieces }: KeptBody) {
  if (encoding !== "identity") {
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Vary", "Accept-Encoding");
  }
  res.setHeader("Content-Length", String(pieces.reduce((length, piece) => length + piece.length, 0)));
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.end();
}
