import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import type { Database } from "./schema";
import type { PoolClient } from "pg";
import { preparedStatementNames } from "./prepared-statements.server";
import { busyTimeoutMs, NodeSqliteDialect, readHoldingWriteLock } from "./node-sqlite.server";
import { workersCheckpointPast } from "./wal-checkpoints.server";
import { accessLevel } from "~/core/access";
import {
  outsideSql,
  signedOut,
  sqliteEpochs,
  stampOf,
  stampSql,
  touchQuery,
  versionRules,
  type KeptAnswerStamp,
  type OutsideRow,
  type SqliteVersions,
  type StampRow,
  type Writer,
} from "./change-versions.server";
import { versionedDialect } from "./versioned-driver.server";
import { coalescedReads } from "./coalesced-reads.server";

export type Dialect = "sqlite" | "postgres";

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Where the data lives, for logs: the SQLite file or the PostgreSQL URL without its password. */
  location: string;
  /**
   * What the kept signed-in answers for this session token are keyed by (decision 016): the
   * session's role and the versions of what its pages show, read in one indexed query, with the
   * fallback that a write from outside the server moves. Differs once anything this person's
   * pages show was committed since it was read, by any process or instance; "signed-out" when
   * the session is gone. With it, when the session ends: an answer is kept no longer.
   */
  keptAnswerStamp(token: string): Promise<KeptAnswerStamp>;
  /**
   * A mark that changes once a write made outside the server committed (the project's
   * commands, psql, the sqlite3 shell); the server's own and its siblings' writes leave it.
   */
  outsideWriteMark(): Promise<string>;
  /**
   * When this process last noticed a write of a program other than Upskill's (SQLite: the epoch
   * its stamps carry moved), in milliseconds since the epoch; 0 if never, and always on
   * PostgreSQL, whose stamps are read whole from the database. An answer another process made
   * from a stamp it read before then may not be kept here (kept-answers-stage.server.ts).
   */
  otherProgramWriteSeenAt(): number;
  /** PostgreSQL only: the connection pool's use now (for the metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * SQLite only: the query planner's statistics gathered where they are missing or out of date
   * (`PRAGMA optimize`: ANALYZE of the tables never analyzed or much grown since; nothing
   * otherwise). Without them SQLite takes the learner condition every staff list starts with for
   * a narrow one. PostgreSQL's autovacuum keeps its own.
   */
  refreshStatistics?(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; without it, SQLite in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL only: the schema to use (tests give each run its own). */
  schema?: string;
  /** PostgreSQL only: told when an idle connection is lost. */
  onConnectionError?: (error: Error) => void;
  /** SQLite only: the file name inside dataDir. */
  sqliteFile?: string;
  /** The project's commands open the database as "outside" writers; the server as "server" (the default). */
  writer?: Writer;
  /** SQLite only: who copies the write-ahead log back into the file (wal-checkpoints.server.ts). */
  checkpoints?: Checkpoints;
}

/**
 * "in-commits": SQLite's own way, in the commit that finds the log long (a single process, the
 * commands); "by-primary": the primary of several server processes does, on a timer.
 */
export type Checkpoints = "in-commits" | "by-primary";

/** Where openDatabase finds the data: the SQLite file, or the PostgreSQL URL without its password. */
export function databaseLocation(options: Pick<DatabaseOptions, "databaseUrl" | "dataDir" | "sqliteFile">): string {
  if (!options.databaseUrl) return sqliteFileOf(options);
  const safe = new URL(options.databaseUrl);
  safe.password = "";
  return safe.toString();
}

function sqliteFileOf(options: Pick<DatabaseOptions, "dataDir" | "sqliteFile">): string {
  return path.join(options.dataDir, options.sqliteFile ?? "upskill.sqlite");
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const report =
      options.onConnectionError ?? ((error: Error) => console.error("database connection lost:", error.message));
    return openPostgres(options.databaseUrl, options.schema, report, options.writer ?? "server");
  }
  return openSqlite(sqliteFileOf(options), options.writer ?? "server", options.checkpoints ?? "in-commits");
}

async function openSqlite(file: string, writer: Writer, checkpoints: Checkpoints): Promise<DatabaseHandle> {
  // Imported here so that a server started on too old a Node fails on the version check, not here.
  const { DatabaseSync } = await import("node:sqlite");
  // Private: the database holds the auth secret and session tokens.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const raw = new DatabaseSync(file);
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec("PRAGMA synchronous = NORMAL");
  if (checkpoints === "by-primary") raw.exec(`PRAGMA wal_autocheckpoint = ${workersCheckpointPast}`);
  raw.exec("PRAGMA foreign_keys = ON");
  raw.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const dialect = versionedDialect(new NodeSqliteDialect(raw), versionRules("sqlite", writer));
  const db = new Kysely<Database>({ dialect });
  // Prepared at first use: the tables are there once the database was migrated.
  let stampRow: ReturnType<typeof raw.prepare> | undefined;
  let outsideRow: ReturnType<typeof raw.prepare> | undefined;
  const readStamp = (token: string) =>
    (stampRow ??= raw.prepare(stampSql("sqlite"))).get(token) as StampRow | undefined;
  const readOutside = () => (outsideRow ??= raw.prepare(outsideSql("sqlite"))).get() as OutsideRow | undefined;
  const epochs = sqliteEpochs(() => dialect.counts().ownCommits);
  // A reading the epochs cannot explain yet is read again holding the write lock, when no other
  // process is half-way through a write. A sibling's write takes milliseconds; one that holds
  // the lock longer (an import) leaves the first reading to stand, taken for a write from
  // outside, as it was before: this process's kept answers are made again.
  const settleWaitMs = 100;
  /** The reading with its epoch; undefined when the row is gone once read again. */
  const withEpoch = async <R extends SqliteVersions>(row: R, reread: () => R | undefined) => {
    const epoch = epochs.observe(row);
    if (epoch !== undefined) return { row, epoch };
    const locked = await db.getExecutor().provideConnection(() => readHoldingWriteLock(raw, reread, settleWaitMs));
    const settled = locked ? locked.read : row;
    return settled === undefined ? undefined : { row: settled, epoch: epochs.settle(settled) };
  };
  return {
    db,
    dialect: "sqlite",
    location: file,
    // The one connection must not be inside a transaction when the stamp is read (it would see
    // that transaction's writes before they commit). Outside one it is read at once (node:sqlite
    // runs it before any other statement can start); inside one it waits for the connection,
    // which Kysely's SQLite driver gives one statement or transaction at a time.
    keptAnswerStamp: async (token) => {
      const row = raw.isTransaction
        ? await db.getExecutor().provideConnection(async () => readStamp(token))
        : readStamp(token);
      const read = row && (await withEpoch(row, () => readStamp(token)));
      return read ? stampOf(read.row, read.epoch, isStaff) : signedOut;
    },
    outsideWriteMark: async () => {
      const row = await db.getExecutor().provideConnection(async () => readOutside());
      const read = row && (await withEpoch(row, readOutside));
      return read ? `${read.row.outside ?? 0}|${read.epoch}` : "0|0";
    },
    otherProgramWriteSeenAt: epochs.movedAt,
    // In a transaction that raises the server version, so that the other processes put the
    // statistics' commit down to the server rather than to a write from outside.
    refreshStatistics: () =>
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(touchQuery({}));
        raw.exec("PRAGMA optimize=0x10002");
      }),
    close: () => db.destroy(),
  };
}

async function openPostgres(
  url: string,
  schema: string | undefined,
  onConnectionError: (error: Error) => void,
  writer: Writer,
): Promise<DatabaseHandle> {
  const pg = await import("pg");
  const pool = new pg.default.Pool({
    connectionString: url,
    max: 10,
    // Each connection sends a query without waiting for the answers to those before it (each
    // still answered in order), so a transaction's begin goes out with its first statement.
    pipeline: true,
    // The server's own writes raise versions themselves, and the commands' raise "outside"
    // themselves (one raise per transaction, not per statement); the triggers count the rest.
    options: `-c upskill.writer=server${schema ? ` -c search_path=${schema}` : ""}`,
  });
  // A connection that the server drops (restart, failover, a dropped database) must not crash
  // the process; the pool replaces it, and queries meanwhile fail and are reported (healthz
  // answers 503). The pool listens on its idle connections only: one taken for a transaction,
  // between two statements, would throw its error out of the process without a listener of ours.
  pool.on("error", (error) => onConnectionError(error));
  pool.on("connect", (client) => {
    let reported = false;
    client.on("error", (error) => {
      // Idle, the pool's own listener reports it (above); taken, its next statement fails, and the
      // pool drops it when it is given back. The server's goodbye and the closed socket that
      // follows it are one loss, reported once.
      if (client.listenerCount("error") === 1 && !reported) onConnectionError(error);
      reported = true;
    });
    prepareNamedStatements(client);
  });
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replaceAll('"', "")}"`);
  const db = new Kysely<Database>({
    dialect: versionedDialect(new PostgresDialect({ pool }), versionRules("postgres", writer), {
      beginWithoutWaiting: true,
    }),
  });
  const text = stampSql("postgres");
  const stampRows = coalescedReads(async (tokens) => {
    const { rows } = await pool.query<StampRow & { token: string } & Record<string, unknown>>({
      name: "upskill_kept_answer_stamps",
      text,
      values: [tokens],
    });
    return new Map(rows.map((row) => [row.token, row]));
  });
  const outsideText = outsideSql("postgres");
  return {
    db,
    dialect: "postgres",
    location: databaseLocation({ databaseUrl: url, dataDir: "" }),
    keptAnswerStamp: async (token) => {
      const row = await stampRows(token);
      return row ? { ...stampOf(row, null, isStaff), session: row } : signedOut;
    },
    outsideWriteMark: async () =>
      String((await pool.query<OutsideRow>({ name: "upskill_outside_mark", text: outsideText })).rows[0]?.outside ?? 0),
    otherProgramWriteSeenAt: () => 0,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

const isStaff = (role: string | null) => accessLevel(role) !== "learner";

/** True when the database answers a trivial query. */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sends the statements compiledOnce registered by name, so that each connection parses and
 * plans them once: node-postgres prepares a named statement on a connection the first time it
 * runs there. Everything else goes as before.
 */
function prepareNamedStatements(client: PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((text: unknown, ...rest: unknown[]) => {
    const name = typeof text === "string" ? preparedStatementNames.get(text) : undefined;
    if (name && Array.isArray(rest[0]) && rest.length === 1) return query({ name, text, values: rest[0] });
    return query(text, ...rest);
  }) as PoolClient["query"];
}
