import cluster from "node:cluster";
import { createRequire } from "node:module";
import * as build from "virtual:react-router/server-build";
import type { Config } from "~/config/config.server";
import { sessionReadWithStamp, sessionReusableUntil } from "~/accounts/permissions.server";
import {
  startHttpServer,
  type RunningServer,
  type ServerDependencies,
  type StartOptions,
} from "~/http/http-server.server";
import { clusterAnswerSharing } from "~/http/shared-answers.server";
import { onShutdown } from "~/http/shutdown.server";
import { getLogger, type Logger } from "~/logging/logger.server";
import { getServices, stopServices, type Services } from "~/platform/services.server";
import { purgeExpiredRateLimits } from "~/security/rate-limit.server";
import { purgeOldActionKeys } from "~/http/action-keys.server";
import { makeDataDirPrivate } from "./private-data";

/**
 * What a serving process loads: the routes, React and the services. server/app.ts imports it
 * when it serves, so that the primary of several processes (which only starts and watches
 * them) does not.
 */

const reactBuildFile = /[\\/]node_modules[\\/]react(?:-dom)?[\\/]cjs[\\/][^\\/]+\.(production|development)\.js$/;

/**
 * Which of React's builds this process runs, read from the modules Node actually executed:
 * "production", "development", or both joined with "+" if something mixed them. (Importing
 * React from ESM also lists the other build in the cache, parsed for its exports but not run.)
 */
function reactBuild(): string {
  const builds = new Set<string>();
  for (const [file, module] of Object.entries(createRequire(import.meta.url).cache)) {
    const kind = reactBuildFile.exec(file)?.[1];
    if (kind && module?.loaded) builds.add(kind);
  }
  return [...builds].sort().join("+") || "none found";
}

/** The production server on the built routes, serving `clientDir` (build/client). */
export function serveBuild(config: Config, clientDir: string): Promise<RunningServer> {
  return serve(config, { build, clientDir });
}

/**
 * Serves with signal handling: opens the services (migrating the database unless this is a
 * worker, whose primary did), starts the HTTP server and the rate-limit purge, and stops on
 * SIGTERM or SIGINT.
 */
export async function serve(config: Config, options: StartOptions): Promise<RunningServer> {
  const logger = getLogger();
  // A worker's primary did it already.
  if (!cluster.isWorker) makeDataDirPrivate(config.dataDir, logger);
  const running = await startHttpServer(options, await serverDependencies());
  logger.info({ react: reactBuild() }, "react build");
  purgeRateLimitsEvery(10 * 60_000, await getServices(), logger);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  // A worker hears the signal from its primary and often from the terminal or systemd too:
  // the stop is made once (running.close is), and the primary is the one a second Ctrl-C ends.
  const listen = cluster.isWorker ? process.on.bind(process) : process.once.bind(process);
  listen("SIGTERM", () => stop("SIGTERM"));
  listen("SIGINT", () => stop("SIGINT"));
  return running;
}

/** The services (the database opened on the first call), as the HTTP server uses them. */
async function serverDependencies(): Promise<ServerDependencies> {
  const services = await getServices();
  return {
    config: services.config,
    logger: services.logger,
    bus: services.bus,
    sessionToken: (cookieHeader) => services.sessionCookies.token(cookieHeader),
    keptAnswerStamp: (token) => services.database.keptAnswerStamp(token),
    outsideWriteMark: () => services.database.outsideWriteMark(),
    sessionReusableUntil,
    sessionReadWithStamp,
    otherProgramWriteSeenAt: () => services.database.otherProgramWriteSeenAt(),
    answerSharing: cluster.isWorker ? clusterAnswerSharing(services.logger) : undefined,
    release: stopServices,
  };
}

/** Rate-limit rows whose window is over, and change keys older than a day, are deleted now and then, until the server stops. */
function purgeRateLimitsEvery(intervalMs: number, services: Services, logger: Logger) {
  const purge = setInterval(() => {
    purgeExpiredRateLimits(services.database.db).catch((error: unknown) =>
      logger.warn({ err: error }, "rate-limit purge failed"),
    );
    purgeOldActionKeys(services.database.db).catch((error: unknown) =>
      logger.warn({ err: error }, "change-key purge failed"),
    );
  }, intervalMs);
  purge.unref();
  onShutdown(() => clearInterval(purge));
}
