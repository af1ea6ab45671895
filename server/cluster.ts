import cluster, { type Worker } from "node:cluster";
import type { Config } from "~/config/config.server";
import { databaseLocation, openDatabase } from "~/db/database.server";
import { primaryCheckpointEveryMs, walCheckpointsEvery } from "~/db/wal-checkpoints.server";
import { migrateDatabase } from "~/db/migrate.server";
import type { Logger } from "~/logging/logger.server";
import { collectMetricsForWorkers } from "~/metrics/metrics.server";
import { relaySharedAnswers } from "~/http/shared-answers.server";
import { relayClusterEvents } from "~/realtime/bus.server";

/** How long a worker waits to be started again after it died: doubled for each quick death in a row. */
const restartDelay = { firstMs: 500, maxMs: 30_000 };
/** A worker that ran at least this long before it died was not dying at start: the wait starts over. */
const stableAfterMs = 60_000;

/** The primary brings the database up to date once, before it starts the workers (which then don't). */
export async function migrateBeforeWorkers(config: Config, logger: Logger): Promise<void> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateDatabase(database, logger);
  } finally {
    await database.close();
  }
}

/**
 * The primary of `WEB_CONCURRENCY` server processes (node:cluster), started once the database
 * is migrated. It forks the workers, which run this same bundle and share the port (the primary
 * accepts connections and hands them out in turn); passes events between them (the cluster bus)
 * and sums their metrics for /metrics; on SQLite checkpoints the write-ahead log for them;
 * starts a worker that died again after a wait that grows while workers keep dying soon after
 * their start; and on SIGTERM or SIGINT asks every worker to stop (each drains as a single
 * process does: /readyz 503, requests in flight finish, streams end) and exits 0 once all of
 * them exited 0, else 1. If a worker fails before any has listened (the port taken), it stops
 * them all and exits 1, as a single process would.
 */
export function runPrimary(options: { workers: number; entry: string; logger: Logger; config: Config }): void {
  const { logger } = options;
  cluster.setupPrimary({ exec: options.entry });
  // On SQLite the primary, which serves nothing, copies the write-ahead log back into the file,
  // not the workers' commits (wal-checkpoints.server.ts).
  const checkpoints = options.config.databaseUrl
    ? Promise.resolve(undefined)
    : walCheckpointsEvery(databaseLocation(options.config), primaryCheckpointEveryMs, (error) =>
        logger.error({ err: error }, "checkpointing the write-ahead log failed; trying again"),
      ).catch((error: unknown) => {
        logger.error({ err: error }, "cannot checkpoint the write-ahead log; the workers' commits will");
        return undefined;
      });
  relayClusterEvents();
  relaySharedAnswers();
  collectMetricsForWorkers();
  /** The workers alive, with when each was started. */
  const startedAt = new Map<Worker, number>();
  let listened = false;
  let stopping = false;
  let failedExits = 0;
  let quickDeaths = 0;
  const restarts = new Set<NodeJS.Timeout>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    worker.once("listening", () => (listened = true));
  };
  // Closing the last connection copies the rest of the log back: the file alone holds everything.
  const exit = (code: number) => void checkpoints.then((running) => running?.stop()).finally(() => process.exit(code));
  const stopAll = (signal: NodeJS.Signals) => {
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    for (const worker of startedAt.keys()) worker.process.kill(signal);
    if (startedAt.size === 0) exit(failedExits === 0 ? 0 : 1);
  };

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    if (stopping) {
      if (code !== 0) failedExits++;
      if (startedAt.size === 0) {
        logger.info({ failed: failedExits }, "stopped every server process");
        exit(failedExits === 0 ? 0 : 1);
      }
      return;
    }
    if (!listened) {
      logger.error({ pid: worker.process.pid, code, signal }, "a server process failed to start");
      stopping = true;
      failedExits++;
      stopAll("SIGKILL");
      return;
    }
    quickDeaths = lived < stableAfterMs ? quickDeaths + 1 : 0;
    const wait = Math.min(restartDelay.maxMs, restartDelay.firstMs * 2 ** Math.max(0, quickDeaths - 1));
    logger.error(
      { pid: worker.process.pid, code, signal, ranForMs: lived, restartInMs: wait },
      "a server process died; starting another",
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, wait);
    restarts.add(timer);
  });

  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, "shutting down every server process");
    stopping = true;
    stopAll("SIGTERM");
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));

  for (let i = 0; i < options.workers; i++) fork();
  logger.info({ processes: options.workers }, "server processes starting");
}
