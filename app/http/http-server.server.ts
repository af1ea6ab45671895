import http from "node:http";
import { once } from "node:events";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { RouterContextProvider, createRequestHandler, type ServerBuild } from "react-router";
import { getServices, stopServices, type Services } from "~/platform/services.server";
import { purgeExpiredRateLimits } from "~/security/rate-limit.server";
import { publicPaths } from "~/site/public-pages";
import { cspNonceContext } from "./csp";
import { pickEncoding, type Encoding } from "./encoding.server";
import { AnonymousPageCache, type CachedPage } from "./page-cache.server";
import { CLIENT_IP_HEADER, clientAddressContext, requestIdContext } from "./request-context";
import { baseSecurityHeaders, contentSecurityPolicy, newNonce } from "./security-headers.server";
import { loadStaticFiles, type StaticFile } from "./static-files.server";
import { isAnonymousRequest, isCacheableQuery } from "./anonymous-request";

export interface StartOptions {
  build: ServerBuild;
  /** The built client files (build/client). */
  clientDir: string;
  mode?: "production" | "development" | "test";
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

/** Long-lived responses (event streams) register here to be ended when the server stops. */
export function onShutdown(hook: ShutdownHook): () => void {
  shutdownHooks.add(hook);
  return () => shutdownHooks.delete(hook);
}

const compressible = /^(text\/(?!event-stream)|application\/(json|xml|javascript|manifest\+json))/;

export async function startHttpServer(options: StartOptions): Promise<RunningServer> {
  const services = await getServices();
  const { config, logger } = services;
  const handle = createRequestHandler(options.build, options.mode ?? "production");
  const staticFiles = loadStaticFiles(options.clientDir);
  const secureHeaders = baseSecurityHeaders(config.appUrl.startsWith("https:"));

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
  );
  const cachedHeaders = new WeakMap<CachedPage, Partial<Record<Encoding, Record<string, string>>>>();
  const headersFor = (page: CachedPage, encoding: Encoding) => {
    let byEncoding = cachedHeaders.get(page);
    if (!byEncoding) cachedHeaders.set(page, (byEncoding = {}));
    return (byEncoding[encoding] ??= {
      ...secureHeaders,
      "Content-Security-Policy": page.csp,
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "public, max-age=0, must-revalidate",
      Vary: "Accept-Encoding, Cookie",
      ETag: page.etag,
      "Content-Length": String(page.bodies[encoding].length),
      ...(encoding === "identity" ? {} : { "Content-Encoding": encoding }),
    });
  };

  const bootId = Date.now().toString(36);
  let requestCount = 0;

  const server = http.createServer({ keepAliveTimeout: 5_000, requestTimeout: 0 }, (req, res) => {
    const started = performance.now();
    const requestId = `${bootId}-${(++requestCount).toString(36)}`;
    const rawUrl = req.url ?? "/";
    const queryAt = rawUrl.indexOf("?");
    const pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    res.on("finish", () => {
      logger.info(
        {
          reqId: requestId,
          method: req.method,
          path: pathname,
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        "request",
      );
    });
    const method = req.method ?? "GET";
    const isRead = method === "GET" || method === "HEAD";

    if (isRead) {
      const file = staticFiles.get(pathname);
      if (file) return sendStatic(req, res, file, requestId);

      if (
        pageCache.has(pathname) &&
        isAnonymousRequest(req.headers.cookie) &&
        (queryAt === -1 || isCacheableQuery(rawUrl.slice(queryAt + 1)))
      ) {
        const page = pageCache.peek(pathname);
        if (page) {
          const encoding = pickEncoding(req.headers["accept-encoding"]);
          if (req.headers["if-none-match"] === page.etag) {
            res.writeHead(304, { ETag: page.etag, "X-Request-Id": requestId });
            res.end();
            return;
          }
          res.writeHead(200, { ...headersFor(page, encoding), "X-Request-Id": requestId });
          res.end(method === "HEAD" ? undefined : page.bodies[encoding]);
          return;
        }
      }
    }

    const nonce = newNonce();
    for (const [name, value] of Object.entries(secureHeaders)) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", contentSecurityPolicy({ nonce }));
    res.setHeader("X-Request-Id", requestId);
    const address = clientAddress(req, config.trustProxyHeader);
    handleDynamic(req, res, handle, makeContext(nonce, address, requestId)).catch((error: unknown) => {
      logger.error({ reqId: requestId, err: error }, "request failed");
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Something went wrong. Please try again.");
      } else {
        res.destroy();
      }
    });
  });

  server.listen(config.port, config.host);
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${port}`;
  logger.info({ url, appUrl: config.appUrl }, "listening");
  void pageCache.warm().catch((error: unknown) => logger.error({ err: error }, "page cache warm-up failed"));
  const purge = setInterval(() => {
    purgeExpiredRateLimits(services.database.db).catch((error: unknown) =>
      logger.warn({ err: error }, "rate-limit purge failed"),
    );
  }, 10 * 60_000);
  purge.unref();
  onShutdown(() => clearInterval(purge));

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
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

/** The client's IP: the socket's, or the first address in the trusted proxy's header. */
function clientAddress(req: http.IncomingMessage, trustProxyHeader: string | undefined): string {
  if (trustProxyHeader) {
    const value = req.headers[trustProxyHeader];
    const first = (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? "unknown";
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
  handle: (request: Request, context: RouterContextProvider) => Promise<Response>,
  context: RouterContextProvider,
) {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    // Only this server says who the client is; a client-sent value is dropped.
    if (req.rawHeaders[i]!.toLowerCase() === CLIENT_IP_HEADER) continue;
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  headers.set(CLIENT_IP_HEADER, context.get(clientAddressContext));
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const request = new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);

  const response = await handle(request, context);
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
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (!sink.write(chunk)) await once(sink, "drain");
    }
  } finally {
    sink.end();
  }
}
