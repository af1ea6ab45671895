import http from "node:http";
import { once } from "node:events";
import { Readable, type Duplex } from "node:stream";
import zlib from "node:zlib";
import { RouterContextProvider, createRequestHandler, type ServerBuild } from "react-router";
import { getServices, stopServices, type Services } from "~/platform/services.server";
import { purgeExpiredRateLimits } from "~/security/rate-limit.server";
import { staffTopic } from "~/realtime/events";
import { publicPages, publicPaths } from "~/site/public-pages";
import { cspNonceContext } from "./csp";
import { pickEncoding, type Encoding } from "./encoding.server";
import { AnonymousPageCache, type CachedPage } from "./page-cache.server";
import { PreparedHeadWriter, prepareHead, type PreparedHead } from "./prepared-head.server";
import { publicSiteTopic } from "~/realtime/events";
import { CLIENT_IP_HEADER, clientAddressContext, requestIdContext, routePatternContext } from "./request-context";
import { countPageCache, countSignedInMemory, observeRequest } from "~/metrics/metrics.server";
import { addressFromProxyHeader } from "./client-address";
import { isStreamedUpload, readCappedBody, requestLimits, bodyMessages } from "./request-limits.server";
import { baseSecurityHeaders, contentSecurityPolicy, newNonce } from "./security-headers.server";
import { loadStaticFiles, type StaticFile } from "./static-files.server";
import { isAnonymousRequest, isCacheableQuery } from "./anonymous-request";
import { sessionReusableUntil } from "~/accounts/permissions.server";
import { SignedInResponses, memoizedPaths } from "./signed-in-responses.server";

export interface StartOptions {
  /** The server build, or (in development) a function that loads the current one. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** The built client files (build/client). */
  clientDir: string;
  mode?: "production" | "development" | "test";
  /**
   * Development: Vite's middleware answers first (modules, HMR) and calls `next` for the rest.
   * Pages are then never cached, and the policy lets the HMR socket connect.
   */
  devMiddleware?: (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
}

export interface RunningServer {
  server: http.Server;
  url: string;
  services: Services;
  pageCache: AnonymousPageCache;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

type ShutdownHook = () => void | Promise<void>;
const shutdownHooks = new Set<ShutdownHook>();
let shuttingDown = false;

/** True from the moment the server starts stopping (readiness then says so). */
export function isShuttingDown(): boolean {
  return shuttingDown;
}

/** Long-lived responses (event streams) register here to be ended when the server stops. */
export function onShutdown(hook: ShutdownHook): () => void {
  shutdownHooks.add(hook);
  return () => shutdownHooks.delete(hook);
}

/** Public pages built from records (placement outcomes): they follow the records' events. */
const livePages = publicPages.flatMap((page) => ("changesWith" in page ? [page.path] : []));
const livePageMaxAgeMs = 60 * 60_000;

const compressible = /^(text\/(?!event-stream)|application\/(json|xml|javascript|manifest\+json))/;

export async function startHttpServer(options: StartOptions): Promise<RunningServer> {
  const services = await getServices();
  const { config, logger } = services;
  const dev = options.devMiddleware;
  const handle = createRequestHandler(options.build, options.mode ?? (dev ? "development" : "production"));
  const staticFiles = loadStaticFiles(options.clientDir);
  const secureHeaders = baseSecurityHeaders(config.appUrl.startsWith("https:"));
  const appOrigin = new URL(config.appUrl).origin;

  const makeContext = (nonce: string | null, address: string, requestId: string) => {
    const context = new RouterContextProvider();
    context.set(cspNonceContext, nonce);
    context.set(clientAddressContext, address);
    context.set(requestIdContext, requestId);
    return context;
  };

  const pageCache = new AnonymousPageCache(
    (path) =>
      handle(
        new Request(`${config.appUrl}${path}`, {
          headers: { accept: "text/html", "user-agent": "upskill-page-cache" },
        }),
        makeContext(null, "127.0.0.1", "page-cache"),
      ),
    new Set(publicPaths),
    new Map(livePages.map((path) => [path, livePageMaxAgeMs])),
  );
  // Pages read from records: dropped when an instance says the records changed (the bus reaches
  // every instance), and rendered at least hourly for what the date alone changes.
  const stopListening = services.bus.subscribe(staffTopic, (event) => {
    if (event.type !== "placement" && event.type !== "resync") return;
    for (const path of livePages) pageCache.drop(path);
  });
  // Each page's headers, validated and serialized once: as a flat name, value list (to which
  // an answer adds its request id) and as a prepared head.
  const cachedHeaders = new WeakMap<CachedPage, Partial<Record<Encoding, { list: string[]; head: PreparedHead }>>>();
  const headersFor = (page: CachedPage, encoding: Encoding) => {
    let byEncoding = cachedHeaders.get(page);
    if (!byEncoding) cachedHeaders.set(page, (byEncoding = {}));
    return (byEncoding[encoding] ??= (() => {
      const list = Object.entries({
        ...secureHeaders,
        "Content-Security-Policy": page.csp,
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "public, max-age=0, must-revalidate",
        Vary: "Accept-Encoding, Cookie",
        ETag: page.etag,
        "Content-Length": String(page.bodies[encoding].length),
        ...(encoding === "identity" ? {} : { "Content-Encoding": encoding }),
      }).flat();
      return { list, head: prepareHead(list) };
    })());
  };
  const preparedHeads = new PreparedHeadWriter(requestLimits.keepAliveTimeoutMs);

  const signedInResponses = new SignedInResponses(32 * 1024 * 1024);
  /** A signed-in page or its data answered from memory while the database is unchanged. */
  const answerFromMemory = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    key: string,
    requestId: string,
  ): Promise<boolean> => {
    const known = signedInResponses.get(key, Date.now());
    countSignedInMemory(known !== undefined);
    if (!known) return false;
    const nonce = newNonce();
    const contentType = known.headers["content-type"] ?? "";
    const encoding = compressible.test(contentType) ? pickEncoding(req.headers["accept-encoding"]) : "identity";
    const pieces = signedInResponses.body(known, nonce, encoding);
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

  const bootId = Date.now().toString(36);
  let requestCount = 0;

  const serverOptions: http.ServerOptions = {
    keepAliveTimeout: requestLimits.keepAliveTimeoutMs,
    headersTimeout: requestLimits.headersTimeoutMs,
    // Node's requestTimeout would cut uploads and event streams too: bodies get their own
    // timers (readCappedBody, endStalledUpload), and a response may take as long as it needs.
    requestTimeout: 0,
    // How often Node checks the headers timeout (its default, 30 s, would let it run to 40 s).
    connectionsCheckingInterval: 1_000,
    // A request without a body (no Content-Length or Transfer-Encoding: every GET) arrives
    // already ended, skipping its stream's events. Development keeps them for Vite's middleware.
    optimizeEmptyRequests: !dev,
  };

  const server = http.createServer(serverOptions, (req, res) =>
    dev ? dev(req, res, () => serve(req, res)) : serve(req, res),
  );
  function serve(req: http.IncomingMessage, res: http.ServerResponse) {
    const started = performance.now();
    const requestId = `${bootId}-${(++requestCount).toString(36)}`;
    const rawUrl = req.url ?? "/";
    const queryAt = rawUrl.indexOf("?");
    const pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const method = req.method ?? "GET";
    const isRead = method === "GET" || method === "HEAD";
    // Answers from memory (static files, cached public pages) are counted in the metrics and
    // logged at debug: a line each would cost more than the answer (a proxy in front logs them).
    const answeredFromMemory = (route: string) => {
      const ms = performance.now() - started;
      if (logger.isLevelEnabled("debug")) {
        logger.debug({ reqId: requestId, method, path: pathname, status: res.statusCode, ms: round(ms) }, "request");
      }
      if (config.metrics) observeRequest(route, method, res.statusCode, ms / 1000);
    };

    if (isRead) {
      const file = staticFiles.get(pathname);
      if (file) {
        sendStatic(req, res, file, requestId);
        return answeredFromMemory("static");
      }

      if (
        !dev &&
        pageCache.has(pathname) &&
        isAnonymousRequest(req.headers.cookie) &&
        (queryAt === -1 || isCacheableQuery(rawUrl.slice(queryAt + 1)))
      ) {
        const page = pageCache.peek(pathname);
        countPageCache(page !== undefined);
        if (page) {
          const encoding = pickEncoding(req.headers["accept-encoding"]);
          if (req.headers["if-none-match"] === page.etag) {
            res.writeHead(304, { ETag: page.etag, "X-Request-Id": requestId });
            res.end();
          } else {
            const headers = headersFor(page, encoding);
            const body = page.bodies[encoding];
            if (!preparedHeads.send(req, res, headers.head, requestId, body)) {
              res.writeHead(200, [...headers.list, "X-Request-Id", requestId]);
              res.end(method === "HEAD" ? undefined : body);
            }
          }
          return answeredFromMemory(pathname);
        }
      }
    }

    // The metrics' route label: a fixed name, a kept page's path, or (for the router's
    // answers) the matched pattern, read from the request's context when it finishes.
    let route: string | RouterContextProvider = "refused";
    res.on("finish", () => {
      const ms = performance.now() - started;
      logger.info({ reqId: requestId, method, path: pathname, status: res.statusCode, ms: round(ms) }, "request");
      if (!config.metrics) return;
      const label = typeof route === "string" ? route : (route.get(routePatternContext) ?? "unmatched");
      observeRequest(label, allowedMethods.includes(method) ? method : "other", res.statusCode, ms / 1000);
    });

    const memoToken =
      method === "GET" && !dev && memoizedPaths.has(pathname) && !isAnonymousRequest(req.headers.cookie)
        ? services.sessionCookies.token(req.headers.cookie ?? "")
        : null;
    if (memoToken !== null) {
      route = pathname;
      serveSignedIn(req, res, memoToken, requestId, rawUrl).catch((error: unknown) => failed(res, requestId, error));
      return;
    }
    route = serveThroughRouter(req, res, requestId, pathname);
  }

  /** A memoized path: from memory while the database is unchanged, else through the router, kept. */
  async function serveSignedIn(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    token: string,
    requestId: string,
    rawUrl: string,
  ) {
    // Read before anything the answer is made from: what is kept is at least this new.
    const now = Date.now();
    const key = signedInResponses.key(token, rawUrl, await services.database.changeStamp(), now);
    if (await answerFromMemory(req, res, key, requestId)) return;
    serveThroughRouter(req, res, requestId, rawUrl.split("?")[0]!, async (nonce, response, body) => {
      const validUntil = await sessionReusableUntil(token);
      if (validUntil === null) return;
      const headers: Record<string, string> = {};
      for (const [name, value] of response.headers) if (!unkeptHeaders.has(name)) headers[name] = value;
      signedInResponses.set(key, { status: response.status, headers, body, nonce, validUntil });
    });
  }

  function failed(res: http.ServerResponse, requestId: string, error: unknown) {
    logger.error({ reqId: requestId, err: error }, "request failed");
    if (!res.headersSent) {
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Something went wrong. Please try again.");
    } else {
      res.destroy();
    }
  }

  /** The router's answer; the route label for the metrics is in the returned context. */
  function serveThroughRouter(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    requestId: string,
    pathname: string,
    keep?: Keep,
  ): string | RouterContextProvider {
    const method = req.method ?? "GET";
    const nonce = newNonce();
    for (const [name, value] of Object.entries(secureHeaders)) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", contentSecurityPolicy({ nonce, devSocket: Boolean(dev) }));
    res.setHeader("X-Request-Id", requestId);

    const target = parseTarget(req, appOrigin);
    if (!target.ok) {
      logger.warn({ reqId: requestId, method, path: pathname, reason: target.message }, "bad request");
      sendProblem(res, target.status, target.message, pathname, target.headers);
      return "refused";
    }
    const address =
      (config.trustProxyHeader &&
        addressFromProxyHeader(req.headers[config.trustProxyHeader], config.trustProxyHops)) ||
      req.socket.remoteAddress ||
      "unknown";
    const context = makeContext(nonce, address, requestId);
    handleDynamic(
      req,
      res,
      target.url,
      handle,
      context,
      keep && ((response, body) => keep(nonce, response, body)),
    ).catch((error: unknown) => failed(res, requestId, error));
    return context;
  }
  // Node answers "Expect: 100-continue" with "100 Continue" to any request; a body that will
  // be refused (over the cap, or a request refused as malformed) is not invited.
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const target = parseTarget(req, appOrigin);
    const refused =
      !target.ok ||
      (Number(req.headers["content-length"]) > requestLimits.maxBodyBytes &&
        !isStreamedUpload(req.method ?? "", target.url.pathname));
    if (!refused) res.writeContinue();
    server.emit("request", req, res);
  });
  // CONNECT never reaches the request handler; without this Node drops the connection unanswered.
  server.on("connect", (req: http.IncomingMessage, socket: Duplex) => {
    logger.warn({ method: req.method, reason: methodNotAllowed }, "bad request");
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${allowedMethods.join(", ")}\r\n` +
        `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(methodNotAllowed)}\r\n` +
        `Connection: close\r\n\r\n${methodNotAllowed}`,
    );
  });

  server.listen(config.port, config.host);
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${port}`;
  logger.info({ url, appUrl: config.appUrl }, "listening");
  if (!dev) void pageCache.warm().catch((error: unknown) => logger.error({ err: error }, "page cache warm-up failed"));
  // Staff changed what a public page shows, on this instance or another (or events were missed).
  onShutdown(services.bus.subscribe(publicSiteTopic, () => pageCache.invalidate()));
  const purge = setInterval(() => {
    purgeExpiredRateLimits(services.database.db).catch((error: unknown) =>
      logger.warn({ err: error }, "rate-limit purge failed"),
    );
  }, 10 * 60_000);
  purge.unref();
  onShutdown(() => clearInterval(purge));
  onShutdown(stopListening);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      shuttingDown = true;
      const closed = once(server, "close");
      server.close();
      server.closeIdleConnections();
      await Promise.allSettled([...shutdownHooks].map((hook) => hook()));
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(force);
      await stopServices();
      logger.info("stopped");
    })());

  return { server, url, services, pageCache, close };
}

/** Milliseconds to one decimal, for the logs. */
const round = (ms: number) => Math.round(ms * 10) / 10;

type Keep = (nonce: string, response: Response, body: Buffer) => Promise<void>;

/** What a kept answer does not carry: each answer sets these itself. */
const unkeptHeaders = new Set([
  "set-cookie",
  "content-security-policy",
  "content-length",
  "content-encoding",
  "vary",
  "x-request-id",
]);

const allowedMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const methodNotAllowed = `This server does not accept that method. It accepts ${allowedMethods.join(", ")}.`;
// A host name (underscores allowed: container names have them), an IPv4 address or a bracketed
// IPv6 address, with an optional port. Nothing that would change the URL: no "@", "/", "?" or spaces.
const validHost = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

type Target =
  { ok: true; url: URL } | { ok: false; status: 400 | 405; message: string; headers?: Record<string, string> };

/**
 * The request's URL, or why the request is refused: a method outside allowedMethods (TRACE
 * among them), a Host header that is not a host, a target that is not a path, or a path with a
 * bad percent-encoding. Each used to reach new URL / new Request / the router and end in a 500.
 *
 * The URL is the path on APP_URL's origin (`origin`), not on the Host header: behind a proxy
 * that ends TLS or listens on another port, Host and scheme are not what the browser used, and
 * React Router refuses an action whose Origin differs from the request URL's.
 */
function parseTarget(req: http.IncomingMessage, origin: string): Target {
  if (!allowedMethods.includes(req.method ?? "")) {
    return { ok: false, status: 405, message: methodNotAllowed, headers: { Allow: allowedMethods.join(", ") } };
  }
  const host = req.headers.host ?? "localhost";
  if (!validHost.test(host)) return { ok: false, status: 400, message: "The Host header is not a valid host name." };
  let path = req.url ?? "/";
  if (!path.startsWith("/")) {
    // The absolute form (GET http://host/path) is what proxies send; only its path is used.
    if (!/^https?:\/\//i.test(path)) return { ok: false, status: 400, message: "The request target is not a path." };
    const absolute = URL.parse(path);
    if (!absolute) return { ok: false, status: 400, message: "The request target is not a valid URL." };
    path = absolute.pathname + absolute.search;
  }
  // Concatenated, not resolved against a base: "//evil.example/x" must stay a path on this host.
  const url = URL.parse(`${origin}${path}`);
  if (!url) return { ok: false, status: 400, message: "The request target is not a valid URL." };
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 400, message: "The address has a bad percent-encoding." };
  }
  return { ok: true, url };
}

/** A refusal from the HTTP layer: JSON with a message for the API, plain text elsewhere. */
function sendProblem(
  res: http.ServerResponse,
  status: number,
  message: string,
  pathname: string,
  headers: Record<string, string> = {},
) {
  writeProblem(res, status, message, pathname, headers);
  res.end();
}

/** The refusal's head and body, written but not ended. */
function writeProblem(
  res: http.ServerResponse,
  status: number,
  message: string,
  pathname: string,
  headers: Record<string, string>,
) {
  const json = pathname.startsWith("/api/");
  const body = json ? JSON.stringify({ message }) : message;
  res.writeHead(status, {
    ...headers,
    "Content-Type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "private, no-store",
  });
  res.write(body);
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
function dropUnreadUpload(req: http.IncomingMessage, socket: Duplex | null) {
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

function sendStatic(req: http.IncomingMessage, res: http.ServerResponse, file: StaticFile, requestId: string) {
  const encoding = pickEncoding(req.headers["accept-encoding"]);
  const body = file.bodies[encoding] ?? file.bodies.identity;
  const headers: Record<string, string> = {
    "Content-Type": file.contentType,
    "Cache-Control": file.cacheControl,
    ETag: file.etag,
    "X-Content-Type-Options": "nosniff",
    "X-Request-Id": requestId,
    Vary: "Accept-Encoding",
  };
  if (req.headers["if-none-match"] === file.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  if (body !== file.bodies.identity) headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = String(body.length);
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

async function handleDynamic(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  handle: (request: Request, context: RouterContextProvider) => Promise<Response>,
  context: RouterContextProvider,
  keep?: (response: Response, body: Buffer) => Promise<void>,
) {
  const method = req.method ?? "GET";
  // Taken now: a request whose body the route cancels lets go of its socket.
  const connection: Duplex | null = req.socket;
  let body: BodyInit | undefined;
  if (method !== "GET" && method !== "HEAD") {
    // A request sent without a body arrived ended (optimizeEmptyRequests): nothing to stream.
    if (isStreamedUpload(method, url.pathname) && !req.readableEnded) {
      endStalledUpload(req, res, url.pathname);
      body = Readable.toWeb(req) as ReadableStream;
    } else {
      const outcome = await readCappedBody(req);
      if (!outcome.ok) {
        if (outcome.status === "aborted") return;
        if (outcome.status === 413) {
          refuseBodyTooLarge(req, res, outcome.message, url.pathname);
          return;
        }
        sendProblem(res, outcome.status, outcome.message, url.pathname, { Connection: "close" });
        return;
      }
      body = outcome.body;
    }
  }
  const controller = new AbortController();
  // Only a client that left early needs aborting; an abort per finished response costs a DOMException.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    // Only this server says who the client is; a client-sent value is dropped.
    if (req.rawHeaders[i]!.toLowerCase() === CLIENT_IP_HEADER) continue;
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  headers.set(CLIENT_IP_HEADER, context.get(clientAddressContext));
  const request = new Request(url, {
    method,
    headers,
    signal: controller.signal,
    ...(body instanceof ReadableStream ? { body, duplex: "half" } : body ? { body } : {}),
  } as RequestInit);

  const response = await handle(request, context);
  // A stalled upload was already answered (endStalledUpload) or the client went away.
  if (res.headersSent || res.destroyed) return;
  // A streamed upload answered before its body was read (refused, or too large part way).
  if (body instanceof ReadableStream) res.once("finish", () => dropUnreadUpload(req, connection));
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
    await keep(response, whole);
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
