import "./node-version";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as build from "virtual:react-router/server-build";
import { ConfigError, getConfig, type Config } from "~/config/config.server";
import { MigrationError } from "~/db/migrate.server";
import type { ServerBuild } from "react-router";
import { sessionReusableUntil } from "~/accounts/permissions.server";
import {
  startHttpServer,
  type RunningServer,
  type ServerDependencies,
  type StartOptions,
} from "~/http/http-server.server";
import { onShutdown } from "~/http/shutdown.server";
import { getLogger, type Logger } from "~/logging/logger.server";
import { getServices, stopServices, type Services } from "~/platform/services.server";
import { purgeExpiredRateLimits } from "~/security/rate-limit.server";
import { purgeOldActionKeys } from "~/http/action-keys.server";
import { makeDataDirPrivate } from "./private-data";

const here = path.dirname(fileURLToPath(import.meta.url));

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

/** Starts the production server from the built bundle, with signal handling. */
export async function start(): Promise<RunningServer> {
  return startWith({ build, clientDir: path.resolve(here, "../client") });
}

/**
 * `npm run dev`: the same HTTP server (headers, CSP, limits, logs), with Vite's middleware in
 * front and the server build loaded afresh through Vite on each request.
 */
export async function startDev(options: {
  loadBuild: () => Promise<ServerBuild>;
  middleware: NonNullable<StartOptions["devMiddleware"]>;
}): Promise<RunningServer> {
  return startWith({
    build: options.loadBuild,
    clientDir: path.resolve(here, "../public"),
    devMiddleware: options.middleware,
  });
}

async function startWith(options: StartOptions): Promise<RunningServer> {
  // Everything the server creates (database, uploads, outbox) is readable by its user only.
  process.umask(0o077);
  let config: Config;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = getLogger();
  makeDataDirPrivate(config.dataDir, logger);
  let running: RunningServer;
  try {
    running = await startHttpServer(options, await serverDependencies());
  } catch (error) {
    // A failed upgrade stops the start with one line naming the migration, as a bad setting does.
    if (error instanceof MigrationError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  logger.info({ react: reactBuild() }, "react build");
  purgeRateLimitsEvery(10 * 60_000, await getServices(), logger);
  const stop = (signal: string) => {
    logger.info({ signal }, "shutting down");
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return running;
}

/** The services (the database opened and migrated on the first call), as the HTTP server uses them. */
async function serverDependencies(): Promise<ServerDependencies> {
  const services = await getServices();
  return {
    config: services.config,
    logger: services.logger,
    bus: services.bus,
    sessionToken: (cookieHeader) => services.sessionCookies.token(cookieHeader),
    keptAnswerStamp: (token) => services.database.keptAnswerStamp(token),
    sessionReusableUntil,
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

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  start().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
