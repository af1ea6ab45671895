import path from "node:path";
import { createAuthFor, type Auth } from "~/accounts/auth.server";
import { createSessionCookieReader, type SessionCookieReader } from "~/accounts/session-reader.server";
import { getConfig, type Config } from "~/config/config.server";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { getLogger, type Logger } from "~/logging/logger.server";
import { createEventBus, type EventBus } from "~/realtime/bus.server";
import { staffTopic } from "~/realtime/events";
import { StreamRegistry } from "~/realtime/stream-registry.server";
import { createResumeUploads, uploadSweepIntervalMs, type ResumeUploads } from "~/uploads/resumes.server";
import { LocalDiskStorage, type UploadStorage } from "~/uploads/storage.server";
import { resumeUploadPath } from "~/uploads/upload-paths";

/** The process's shared parts: built once at start, handed to routes and the HTTP server. */
export interface Services {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  auth: Auth;
  /** Reads the session cookie cheaply (the permission gate's first step). */
  sessionCookies: SessionCookieReader;
  /** Live events: in-process on SQLite, LISTEN/NOTIFY on PostgreSQL. */
  bus: EventBus;
  /** Uploaded files (resumes, photos). */
  storage: UploadStorage;
  /** This instance's open event streams. */
  streams: StreamRegistry;
  /** The tus endpoint for resumes. */
  resumes: ResumeUploads;
  /** Stops the timers and the bus, and closes the database. */
  close(): Promise<void>;
}

/**
 * Builds every service on an open database: auth (whose sign-ups are announced to staff on the
 * bus), the bus, upload storage under DATA_DIR, the resume uploads with their sweep, and the
 * stream registry with its checks. The app builds it once; tests build one per database.
 */
export async function buildServices(options: {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  bus?: EventBus;
}): Promise<Services> {
  const { config, logger, database } = options;
  const db = database.db;
  const bus = options.bus ?? createEventBus({ databaseUrl: config.databaseUrl, logger });
  const announceSignUp = (learnerId: string) => {
    // The account exists either way; staff see it on their next refresh.
    bus
      .publish(staffTopic, { type: "learner-signed-up", learnerId })
      .catch((error: unknown) => logger.warn({ err: error }, "sign-up event could not be published"));
  };
  const auth = await createAuthFor({ db, dialect: database.dialect, config, logger, onSignUp: announceSignUp });
  const sessionCookies = await createSessionCookieReader(auth);
  const storage = new LocalDiskStorage(path.join(config.dataDir, "uploads"));
  const resumes = createResumeUploads({
    db,
    storage,
    bus,
    logger,
    incomingDir: path.join(config.dataDir, "uploads-incoming"),
    maxBytes: config.resumeMaxBytes,
    path: resumeUploadPath,
  });
  // Abandoned uploads are removed an hour after they were last touched.
  const sweep = setInterval(() => {
    resumes.cleanUp().catch((error: unknown) => logger.warn({ err: error }, "upload clean-up failed"));
  }, uploadSweepIntervalMs);
  sweep.unref();
  const streams = new StreamRegistry(db);
  const stopChecking = streams.startChecking(undefined, (error) =>
    logger.warn({ err: error }, "checking open event streams failed"),
  );
  return {
    config,
    logger,
    database,
    auth,
    sessionCookies,
    bus,
    storage,
    streams,
    resumes,
    async close() {
      clearInterval(sweep);
      stopChecking();
      await bus.close();
      await database.close();
    },
  };
}

let current: Promise<Services> | undefined;

/** Opens and migrates the database on first call; later calls get the same services. */
export function getServices(): Promise<Services> {
  current ??= start();
  current.catch(() => (current = undefined));
  return current;
}

/** Makes these the process's services (tests that call loaders and actions directly). */
export function provideServices(services: Services): void {
  current = Promise.resolve(services);
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
  return buildServices({ config, logger, database });
}

/** Closes what start opened (used on SIGTERM and by tests). */
export async function stopServices(): Promise<void> {
  if (!current) return;
  const services = await current;
  current = undefined;
  await services.close();
}
