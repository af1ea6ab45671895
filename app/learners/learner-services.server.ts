import path from "node:path";
import { getSessionUser } from "~/accounts/session.server";
import { onShutdown } from "~/http/http-server.server";
import { getServices } from "~/platform/services.server";
import { createEventBus, type EventBus } from "~/realtime/bus.server";
import { StreamRegistry } from "~/realtime/stream-registry.server";
import { createResumeUploads, uploadSweepIntervalMs, type ResumeUploads } from "~/uploads/resumes.server";
import { LocalDiskStorage, type UploadStorage } from "~/uploads/storage.server";
import { createLearnerApi, resumeUploadPath, type LearnerApiDeps } from "./learner-api.server";

export interface LearnerServices extends LearnerApiDeps {
  storage: UploadStorage;
  bus: EventBus;
  streams: StreamRegistry;
  resumes: ResumeUploads;
  api: (request: Request) => Promise<Response>;
}

let building: Promise<LearnerServices> | undefined;

/**
 * The learner dashboard's parts for this process: upload storage under DATA_DIR/uploads, the
 * event bus (LISTEN/NOTIFY on PostgreSQL, in-process on SQLite), the tus endpoint and the API.
 */
export function getLearnerServices(): Promise<LearnerServices> {
  building ??= (async () => {
    const { config, logger, database } = await getServices();
    const storage = new LocalDiskStorage(path.join(config.dataDir, "uploads"));
    const bus = createEventBus({ databaseUrl: config.databaseUrl, logger });
    const resumes = createResumeUploads({
      db: database.db,
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
    const streams = new StreamRegistry(database.db);
    const stopChecking = streams.startChecking(undefined, (error) =>
      logger.warn({ err: error }, "checking open event streams failed"),
    );
    onShutdown(async () => {
      clearInterval(sweep);
      stopChecking();
      await bus.close();
    });
    const deps: LearnerApiDeps = {
      db: database.db,
      config,
      logger,
      storage,
      bus,
      resumes,
      authenticate: getSessionUser,
    };
    return { ...deps, storage, bus, streams, resumes, api: createLearnerApi(deps) };
  })();
  building.catch(() => (building = undefined));
  return building;
}
