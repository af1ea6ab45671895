import cluster from "node:cluster";
import path from "node:path";
import { authSecret, createAuthFor, type Auth } from "~/accounts/auth.server";
import { newInvitationLink } from "~/accounts/invitations.server";
import { provideGateParts } from "~/accounts/permissions.server";
import { createSessionCookieReader, type SessionCookieReader } from "~/accounts/session-reader.server";
import { getConfig, type Config } from "~/config/config.server";
import { startDocumentJobs } from "~/documents/issue-jobs.server";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { migrateDatabase } from "~/db/migrate.server";
import { purgeOldEnquiries } from "~/enquiries/enquiries.server";
import { eraseDueAccounts } from "~/learners/account-deletion.server";
import { getLogger, type Logger } from "~/logging/logger.server";
import { MailWorker, type MailWorkerOptions } from "~/mail/mail-queue.server";
import { createMailer, type Mailer } from "~/mail/mailer.server";
import { unsubscribeKey } from "~/mail/unsubscribe.server";
import { mailHandlers } from "./mail-handlers.server";
import { createEventBus, type EventBus } from "~/realtime/bus.server";
import { forgetPublicAggregatesOnChange } from "~/placement/kept-public-aggregates.server";
import { staffTopic } from "~/realtime/events";
import { StreamRegistry } from "~/realtime/stream-registry.server";
import { watchMetricSources } from "~/metrics/metrics.server";
import { describeS3 } from "~/config/storage-url";
import { diskIncomingUploads, s3IncomingUploads, type IncomingUploads } from "~/uploads/incoming-uploads.server";
import { createResumeUploads, uploadSweepIntervalMs, type ResumeUploads } from "~/uploads/resumes.server";
import { S3Storage } from "~/uploads/s3-storage.server";
import { LocalDiskStorage, type UploadStorage } from "~/uploads/storage.server";
import { assignmentUploadPath, resumeUploadPath } from "~/uploads/upload-paths";
import { createAssignmentUploads, type AssignmentUploads } from "~/assignments/assignment-uploads.server";
import { storeStartingBrand } from "~/site/sections/sections.server";
import { currentInstitute } from "~/site/sections/institute.server";

/** The process's shared parts: built once at start, handed to routes and the HTTP server. */
export interface Services {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  auth: Auth;
  /** Reads the session cookie cheaply (the permission gate's first step). */
  sessionCookies: SessionCookieReader;
  /** Live events: in-process on SQLite (between the processes of one `npm start` over IPC), LISTEN/NOTIFY on PostgreSQL. */
  bus: EventBus;
  /** Email: SMTP_URL, or .eml files in DATA_DIR/outbox. */
  mailer: Mailer;
  /** Certificates being issued to many learners: `kick()` starts on a new job at once. */
  documentJobs: { kick(): void; stop(): Promise<void> };
  /** Uploaded files (resumes, photos, documents): the local disk, or the bucket of STORAGE_URL. */
  storage: UploadStorage;
  /** This instance's open event streams. */
  streams: StreamRegistry;
  /** The tus endpoint for resumes. */
  resumes: ResumeUploads;
  /** The tus endpoint for files handed in for assignments. */
  assignmentUploads: AssignmentUploads;
  /** Sends queued notification emails in the background. */
  mailWorker: MailWorker;
  /** Signs the unsubscribe links in notification emails. */
  unsubscribeKey: Buffer;
  /** Stops the timers and the bus, and closes the database. */
  close(): Promise<void>;
}

/**
 * Abandoned uploads are removed an hour after they were last touched; accounts whose owners
 * asked to delete them are erased once their grace period is over; enquiries after their
 * retention; SQLite's planner statistics follow the data's growth (decision 025), at start too:
 * a database never analyzed (seeded, restored) would be read with slow plans until the first sweep.
 */
function startSweep(
  deps: Parameters<typeof eraseDueAccounts>[0] & { database: DatabaseHandle; resumes: ResumeUploads },
): ReturnType<typeof setInterval> {
  const { db, resumes, logger, database } = deps;
  const refreshStatistics = () =>
    database
      .refreshStatistics?.()
      .catch((error: unknown) => logger.warn({ err: error }, "refreshing statistics failed"));
  refreshStatistics();
  const sweep = setInterval(() => {
    resumes.cleanUp().catch((error: unknown) => logger.warn({ err: error }, "upload clean-up failed"));
    eraseDueAccounts(deps).catch((error: unknown) => logger.warn({ err: error }, "erasing deleted accounts failed"));
    purgeOldEnquiries(db).catch((error: unknown) => logger.warn({ err: error }, "deleting old enquiries failed"));
    refreshStatistics();
  }, uploadSweepIntervalMs);
  sweep.unref();
  return sweep;
}

/**
 * Builds every service on an open database: auth (whose sign-ups are announced to staff on the
 * bus), the bus, upload storage (under DATA_DIR, or STORAGE_URL's bucket), the resume uploads
 * with their sweep, and the stream registry with its checks. The app builds it once; tests
 * build one per database.
 */
export async function buildServices(options: {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  bus?: EventBus;
  /** The mail worker's timings (tests make them short), and whether it starts (it does unless `start: false`). */
  mailWorker?: Partial<MailWorkerOptions> & { start?: boolean };
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
  // Unfinished resume uploads wait beside the storage: on its disk (finishing is a hard link)
  // or in its bucket (finishing is a copy inside the bucket), so every instance can continue one.
  let storage: UploadStorage;
  let incoming: IncomingUploads;
  if (config.storage) {
    const bucket = new S3Storage(config.storage);
    storage = bucket;
    incoming = s3IncomingUploads(bucket);
  } else {
    storage = new LocalDiskStorage(path.join(config.dataDir, "uploads"));
    incoming = diskIncomingUploads(path.join(config.dataDir, "uploads-incoming"), storage);
  }
  await storeStartingBrand(db, config.site);
  // The sender's name is the site's name as stored when each message goes.
  const mailer = createMailer(config, logger, async () => (await currentInstitute(db, config.site)).name);
  const auth = await createAuthFor({ db, dialect: database.dialect, config, logger, mailer, onSignUp: announceSignUp });
  const linkKey = unsubscribeKey(await authSecret(db, config.authSecret));
  const mailWorker = new MailWorker(
    {
      db,
      bus,
      mailer,
      logger,
      ...mailHandlers({
        db,
        config,
        storage,
        unsubscribeKey: linkKey,
        invitationLink: (learnerId) => newInvitationLink(auth, config.appUrl, learnerId),
      }),
    },
    options.mailWorker,
  );
  if (options.mailWorker?.start !== false) mailWorker.start();
  const sessionCookies = await createSessionCookieReader(auth);
  const resumes = createResumeUploads({
    db,
    storage,
    bus,
    logger,
    incoming,
    maxBytes: config.resumeMaxBytes,
    path: resumeUploadPath,
  });
  const assignmentUploads = createAssignmentUploads({
    db,
    storage,
    bus,
    logger,
    incoming,
    maxBytes: config.assignmentMaxBytes,
    path: assignmentUploadPath,
  });
  const sweep = startSweep({ db, storage, resumes, logger, database });
  const documentJobs = startDocumentJobs({ db, bus, storage, mailer, logger, config });
  const stopForgettingAggregates = forgetPublicAggregatesOnChange(bus);
  const streams = new StreamRegistry(db);
  watchMetricSources({ openStreams: () => streams.size, pool: database.poolStats });
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
    mailer,
    documentJobs,
    storage,
    streams,
    resumes,
    assignmentUploads,
    mailWorker,
    unsubscribeKey: linkKey,
    async close() {
      await mailWorker.stop();
      clearInterval(sweep);
      stopChecking();
      await documentJobs.stop();
      stopForgettingAggregates();
      await bus.close();
      storage.close();
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

provideGateParts(async () => {
  const { auth, database, sessionCookies } = await getServices();
  return { db: database.db, auth, sessionCookies };
});

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
    // Several server processes: their primary checkpoints SQLite's log (server/cluster.ts).
    checkpoints: cluster.isWorker ? "by-primary" : "in-commits",
  });
  // Several server processes: their primary migrated it before starting them.
  if (!cluster.isWorker) await migrateDatabase(database, logger);
  logger.info(
    { storage: config.storage ? describeS3(config.storage) : path.join(config.dataDir, "uploads") },
    "upload storage",
  );
  return buildServices({ config, logger, database });
}

/** Closes what start opened (used on SIGTERM and by tests). */
export async function stopServices(): Promise<void> {
  if (!current) return;
  const services = await current;
  current = undefined;
  await services.close();
}
