import "./node-version";
import cluster from "node:cluster";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { ConfigError, getConfig, type Config } from "~/config/config.server";
import { MigrationError } from "~/db/migrate.server";
import type { RunningServer, StartOptions } from "~/http/http-server.server";
import { getLogger } from "~/logging/logger.server";
import { migrateBeforeWorkers, runPrimary } from "./cluster";
import { makeDataDirPrivate } from "./private-data";

// The entry of the server bundle: small, so that the primary of several processes stays small.
// What serves (routes, React, services) is in ./serve, imported once this process serves.
const entry = fileURLToPath(import.meta.url);
const here = path.dirname(entry);

/**
 * Starts the production server from the built bundle, with signal handling: one process, or with
 * WEB_CONCURRENCY above 1 the primary of that many (server/cluster.ts), which migrates the
 * database and starts the workers; each worker runs this bundle again and serves (null here).
 */
export async function start(): Promise<RunningServer | null> {
  const config = readConfig();
  if (cluster.isPrimary && config.webConcurrency > 1) {
    const logger = getLogger();
    makeDataDirPrivate(config.dataDir, logger);
    await stopOnMigrationError(migrateBeforeWorkers(config, logger));
    runPrimary({ workers: config.webConcurrency, entry, logger, config });
    return null;
  }
  const { serveBuild } = await import("./serve");
  return stopOnMigrationError(serveBuild(config, path.resolve(here, "../client")));
}

/**
 * `npm run dev`: the same HTTP server (headers, CSP, limits, logs), with Vite's middleware in
 * front and the server build loaded afresh through Vite on each request.
 */
export async function startDev(options: {
  loadBuild: () => Promise<ServerBuild>;
  middleware: NonNullable<StartOptions["devMiddleware"]>;
}): Promise<RunningServer> {
  const { serve } = await import("./serve");
  return stopOnMigrationError(
    serve(readConfig(), {
      build: options.loadBuild,
      clientDir: path.resolve(here, "../public"),
      devMiddleware: options.middleware,
    }),
  );
}

/**
 * The configuration, with everything the server creates readable by its user only (umask); a
 * bad setting stops the start with one line naming each.
 */
function readConfig(): Config {
  process.umask(0o077);
  try {
    return getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** A failed upgrade stops the start with one line naming the migration, as a bad setting does. */
async function stopOnMigrationError<T>(starting: Promise<T>): Promise<T> {
  try {
    return await starting;
  } catch (error) {
    if (error instanceof MigrationError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  start().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
