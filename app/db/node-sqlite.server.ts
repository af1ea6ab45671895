import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import {
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteStatement,
} from "kysely";

/**
 * How long a statement waits for a lock another process holds (SQLite's busy timeout) before it
 * fails. A transaction's "begin immediate" does not wait inside SQLite: see `whileBusy`.
 */
export const busyTimeoutMs = 5_000;

/**
 * node:sqlite cannot bind booleans and silently binds a Date as NULL, so every parameter
 * goes through here: booleans become 0/1 and dates ISO-8601 strings.
 */
function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && !(value instanceof Uint8Array)) return JSON.stringify(value);
  return value as SQLInputValue;
}

/** Enough for every distinct query the app makes; `in (?, ?, …)` lists of odd lengths age out. */
export const preparedStatementLimit = 500;

interface Prepared {
  statement: StatementSync;
  reader: boolean;
}

/**
 * Adapts node:sqlite's DatabaseSync to the interface Kysely's SqliteDialect expects. Preparing
 * a statement costs more than running most of ours, so statements are kept by SQL text (least
 * recently used dropped first). all() and run() finish before they return, so one statement
 * serves every caller; iterate() gets a statement of its own, because running a statement again
 * invalidates an iterator still open on it.
 */
export function adaptNodeSqlite(db: DatabaseSync): SqliteDatabase {
  const prepared = new Map<string, Prepared>();
  const cached = (sql: string): Prepared => {
    let entry = prepared.get(sql);
    if (entry) {
      // Map keeps insertion order: re-inserting makes this the most recently used.
      prepared.delete(sql);
    } else {
      const statement = db.prepare(sql);
      entry = { statement, reader: statement.columns().length > 0 };
      if (prepared.size >= preparedStatementLimit) prepared.delete(prepared.keys().next().value!);
    }
    prepared.set(sql, entry);
    return entry;
  };
  return {
    close() {
      prepared.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      // Kysely opens transactions with a plain (deferred) "begin". One that reads first and then
      // writes fails at once with SQLITE_BUSY if another process (npm run role, a backup) wrote
      // in between; "begin immediate" takes the write lock up front. It asks once: SQLite's own
      // wait sleeps, and node:sqlite runs on the event loop, so every request of this process
      // would stop while another process writes; the driver waits without blocking (whileBusy).
      if (sql === "begin") {
        const { statement } = cached("begin immediate");
        return {
          reader: false,
          all: () => [],
          run: () => askingOnce(db, () => statement.run()),
          iterate: () => [][Symbol.iterator](),
        };
      }
      const { statement, reader } = cached(sql);
      return {
        reader,
        all: (parameters) => statement.all(...parameters.map(toSqlite)) as unknown[],
        run: (parameters) => statement.run(...parameters.map(toSqlite)),
        iterate: (parameters) => db.prepare(sql).iterate(...parameters.map(toSqlite)) as IterableIterator<unknown>,
      };
    },
  };
}

/**
 * SQLite changes schemas inside transactions, but Kysely's adapter says it can't, so its
 * Migrator would run each statement on its own and a failed migration would leave half of
 * itself behind. Saying so makes the Migrator run every pending migration in one transaction
 * ("begin immediate", see above): all of them are kept, or none.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Runs `statement` (a "begin immediate") with no busy wait inside SQLite: it fails at once if locked. */
function askingOnce<T>(db: DatabaseSync, statement: () => T): T {
  db.exec("PRAGMA busy_timeout = 0");
  try {
    return statement();
  } finally {
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  }
}

/** SQLite's "database is locked" (SQLITE_BUSY, with any extended code): another process holds the lock. */
function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === "number" && (code & 0xff) === 5;
}

/**
 * Runs `attempt` (a "begin immediate") again while another process holds the write lock, pausing
 * 1, 2, 4 and then 8 ms between tries without holding the event loop, for up to `waitMs`; then
 * fails as SQLite's busy timeout would.
 */
export async function whileBusy<T>(attempt: () => Promise<T>, waitMs = busyTimeoutMs): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 8)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * Reads holding the write lock, when no other process is half-way through a write: waits for
 * the lock up to `waitMs` without blocking (whileBusy), reads, and lets the lock go. Undefined
 * when another process held it all that time. The caller must hold the connection (Kysely's
 * provideConnection), so that no statement of this process runs in between.
 */
export async function readHoldingWriteLock<T>(
  db: DatabaseSync,
  read: () => T,
  waitMs: number,
): Promise<{ read: T } | undefined> {
  try {
    await whileBusy(async () => askingOnce(db, () => db.exec("begin immediate")), waitMs);
  } catch (error) {
    if (isBusy(error)) return undefined;
    throw error;
  }
  try {
    return { read: read() };
  } finally {
    db.exec("rollback");
  }
}

/** Kysely's SQLite driver, whose transactions wait for another process's write lock without blocking. */
class NodeSqliteDriver extends SqliteDriver implements Driver {
  override beginTransaction(connection: DatabaseConnection): Promise<void> {
    return whileBusy(() => super.beginTransaction(connection));
  }
}

/** Kysely's SQLite dialect over node:sqlite (adaptNodeSqlite), with transactional migrations. */
export class NodeSqliteDialect extends SqliteDialect {
  private readonly database: SqliteDatabase;

  constructor(db: DatabaseSync) {
    const database = adaptNodeSqlite(db);
    super({ database });
    this.database = database;
  }

  override createDriver(): Driver {
    return new NodeSqliteDriver({ database: this.database });
  }

  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
