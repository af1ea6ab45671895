import type { DatabaseSync } from "node:sqlite";

/**
 * SQLite copies its write-ahead log back into the database file (a checkpoint) in the commit
 * that finds the log past 1,000 pages: megabytes of writes and two fsyncs, inside whichever
 * request made that commit, and node:sqlite runs on the event loop, so every request of that
 * process waits (4 to 14 ms measured on a working day, about once a second per process). With
 * several server processes their primary, which serves no request, checkpoints instead
 * (`walCheckpointsEvery`), and the workers' own commits only do so past this many pages: if the
 * primary stops checkpointing, the log still stays bounded.
 */
export const workersCheckpointPast = 10_000;

/** How often the primary copies the log back: about as often as SQLite itself does under load. */
export const primaryCheckpointEveryMs = 1_000;

interface WalCheckpoint {
  /** Pages in the log. */
  log: number;
  /** Pages of the log now in the database file. */
  checkpointed: number;
}

/**
 * A passive checkpoint now: it copies what no reader still needs and waits for no one (a
 * writer goes on writing meanwhile). Null when the database is not in WAL mode.
 */
function checkpointNow(db: DatabaseSync): WalCheckpoint | null {
  const row = db.prepare("PRAGMA wal_checkpoint(PASSIVE)").get() as
    { busy: number; log: number; checkpointed: number } | undefined;
  return row && row.log >= 0 ? { log: row.log, checkpointed: row.checkpointed } : null;
}

/**
 * Checkpoints the SQLite file every `everyMs` from a connection of its own, until stopped. A
 * failed checkpoint (the disk full, say) is reported and tried again next time: the workers'
 * backstop keeps the log bounded meanwhile.
 */
export async function walCheckpointsEvery(
  file: string,
  everyMs: number,
  onError: (error: unknown) => void,
): Promise<{ stop(): void }> {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(file);
  // Never waits: a checkpoint that finds the file locked (a worker's backstop checkpointing) is
  // simply made on the next tick.
  db.exec("PRAGMA busy_timeout = 0");
  const timer = setInterval(() => {
    try {
      checkpointNow(db);
    } catch (error) {
      onError(error);
    }
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      db.close();
    },
  };
}
