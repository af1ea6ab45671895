import http from "node:http";
import { once } from "node:events";
import type { RouterContextProvider, ServerBuild } from "react-router";
import type { Config } from "~/config/config.server";
import type { Logger } from "~/logging/logger.server";
import type { EventBus } from "~/realtime/bus.server";
import type { KeptAnswerStamp } from "~/db/change-versions.server";
import { keptAnswersStage } from "./kept-answers-stage.server";
import { pageCacheStage } from "./page-cache-stage.server";
import { answerFailure } from "./problem.server";
import { requestLimits } from "./request-limits.server";
import { requestLog } from "./request-log.server";
import type { AnswerSharing } from "./shared-answers.server";
import { refuseBeforeTheHandler } from "./request-target.server";
import { routerStage } from "./router-stage.server";
import { baseSecurityHeaders } from "./security-headers.server";
import { gracefulClose, onShutdown } from "./shutdown.server";
import { staticStage } from "./static-stage.server";

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

/** What the server uses of the process's services, handed in by the composition root (server/app.ts). */
export interface ServerDependencies {
  config: Pick<Config, "appUrl" | "host" | "port" | "metrics" | "trustProxyHeader" | "trustProxyHops">;
  logger: Logger;
  /** Live events: the cached public pages follow them. */
  bus: EventBus;
  /** The session token of a validly signed session cookie in a Cookie header, or null. */
  sessionToken(cookieHeader: string): string | null;
  /** What a session's kept answers are keyed by, and when it ends (DatabaseHandle.keptAnswerStamp). */
  keptAnswerStamp(token: string): Promise<KeptAnswerStamp>;
  /** Changes once a write made outside the server committed (DatabaseHandle.outsideWriteMark). */
  outsideWriteMark?(): Promise<string>;
  /** Until when an answer made for a session that ends then may be reused, or null for none. */
  sessionReusableUntil(sessionEndsAt: number): Promise<number | null>;
  /** Hands the gate the session a stamp was read with (KeptAnswerStamp's `session`) for the request. */
  sessionReadWithStamp?(request: Request, session: Readonly<Record<string, unknown>>): void;
  /** When this process last noticed a write of another program (DatabaseHandle.otherProgramWriteSeenAt). */
  otherProgramWriteSeenAt(): number;
  /** The other server processes of this machine, with which kept answers are shared (one process: none). */
  answerSharing?: AnswerSharing;
  /** Closes what the server used (the database), once the requests in flight are done. */
  release(): Promise<void>;
}

export interface RunningServer {
  server: http.Server;
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

/**
 * The HTTP server: each request goes through the stages in turn until one answers: the static
 * files, the cached public pages, the kept signed-in answers, and React Router. The first two
 * answer GET and HEAD from memory; development (Vite in front) skips the caches.
 */
export async function startHttpServer(options: StartOptions, dependencies: ServerDependencies): Promise<RunningServer> {
  const { config, logger } = dependencies;
  const dev = options.devMiddleware;
  const secureHeaders = baseSecurityHeaders(config.appUrl.startsWith("https:"));
  const router = routerStage({
    build: options.build,
    mode: options.mode ?? (dev ? "development" : "production"),
    appUrl: config.appUrl,
    trustProxyHeader: config.trustProxyHeader,
    trustProxyHops: config.trustProxyHops,
    secureHeaders,
    devSocket: Boolean(dev),
    logger,
  });
  const answerStatic = staticStage(options.clientDir);
  const pages = dev
    ? null
    : pageCacheStage({
        render: router.renderAnonymous,
        bus: dependencies.bus,
        secureHeaders,
        outsideWriteMark: dependencies.outsideWriteMark,
      });
  const kept = dev
    ? null
    : keptAnswersStage({
        sessionToken: dependencies.sessionToken,
        keptAnswerStamp: dependencies.keptAnswerStamp,
        reusableUntil: dependencies.sessionReusableUntil,
        secureHeaders,
        router,
        sharing: dependencies.answerSharing,
        otherProgramWriteSeenAt: dependencies.otherProgramWriteSeenAt,
        sessionReadWithStamp: dependencies.sessionReadWithStamp,
      });
  const log = requestLog(logger, config.metrics);
  // Unique to this process among several started at once (WEB_CONCURRENCY): its start and pid.
  const bootId = `${Date.now().toString(36)}-${process.pid.toString(36)}`;
  let requestCount = 0;

  function serve(req: http.IncomingMessage, res: http.ServerResponse) {
    const started = performance.now();
    const requestId = `${bootId}-${(++requestCount).toString(36)}`;
    const rawUrl = req.url ?? "/";
    const queryAt = rawUrl.indexOf("?");
    const pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const method = req.method ?? "GET";

    if (method === "GET" || method === "HEAD") {
      if (answerStatic(req, res, pathname, requestId)) {
        return log.fromMemory("static", method, pathname, requestId, res.statusCode, started);
      }
      if (pages?.answer(req, res, pathname, rawUrl, queryAt, requestId)) {
        return log.fromMemory(pathname, method, pathname, requestId, res.statusCode, started);
      }
    }

    // Known by the time the answer finishes: a fixed name, a kept page's path, or the router's context.
    let route: string | RouterContextProvider = "refused";
    res.on("finish", () => log.finished(route, method, pathname, requestId, res.statusCode, started));
    const token = kept?.tokenFor(req, method, pathname) ?? null;
    if (kept && token !== null) {
      route = pathname;
      kept
        .serve(req, res, token, requestId, rawUrl)
        .catch((error: unknown) => answerFailure(logger, res, requestId, error));
      return;
    }
    route = router.serve(req, res, requestId, pathname);
  }

  const server = http.createServer(
    {
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
    },
    (req, res) => (dev ? dev(req, res, () => serve(req, res)) : serve(req, res)),
  );
  refuseBeforeTheHandler(server, new URL(config.appUrl).origin, logger);

  server.listen(config.port, config.host);
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${port}`;
  logger.info({ url, appUrl: config.appUrl }, "listening");
  if (pages) {
    void pages.warm().catch((error: unknown) => logger.error({ err: error }, "page cache warm-up failed"));
    onShutdown(pages.stop);
  }
  return { server, url, close: gracefulClose(server, dependencies.release, logger) };
}
