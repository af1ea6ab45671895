import { getConfig, type Config } from "~/config/config.server";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { getLogger, type Logger } from "~/logging/logger.server";

/** The process's shared parts: built once at start, handed to routes and the HTTP server. */
export interface Services {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
}

let starting: Promise<Services> | undefined;

/** Opens and migrates the database on first call; later calls get the same services. */
export function getServices(): Promise<Services> {
  starting ??= start();
  return starting;
}

async function start(): Promise<Services> {
  const config = getConfig();
  const logger = getLogger();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) => logger.error({ err: error.message }, "database connection lost"),
  });
  const result = await migrateToLatest(database.db);
  const applied = result.results?.filter((r) => r.status === "Success").map((r) => r.migrationName) ?? [];
  logger.info({ database: database.dialect, location: database.location, applied }, "database ready");
  return { config, logger, database };
}

/** Closes what start opened (used on SIGTERM and by tests). */
export async function stopServices(): Promise<void> {
  if (!starting) return;
  const services = await starting;
  starting = undefined;
  await services.database.close();
}
