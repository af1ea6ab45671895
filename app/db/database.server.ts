import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import type { Database } from "./schema";
import type { PoolClient } from "pg";
import { preparedStatementNames } from "./prepared-statements.server";
import { NodeSqliteDialect } from "./node-sqlite.server";

export type Dialect = "sqlite" | "postgres";

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Where the data lives, for logs: the SQLite file or the PostgreSQL URL without its password. */
  location: string;
  /**
   * A value that differs once any write was committed since it was read, by this process or
   * another: SQLite's count of rows this connection changed with the file's data_version (other
   * connections' commits); PostgreSQL's snapshot (a commit ends a transaction it lists as
   * running, or one that started after it). Reads leave it as it is.
   */
  changeStamp(): Promise<string>;
  /** PostgreSQL only: the connection pool's use now (for the metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
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
}

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
    return openPostgres(options.databaseUrl, options.schema, report);
  }
  return openSqlite(sqliteFileOf(options));
}

async function openSqlite(file: string): Promise<DatabaseHandle> {
  // Imported here so that a server started on too old a Node fails on the version check, not here.
  const { DatabaseSync } = await import("node:sqlite");
  // Private: the database holds the auth secret and session tokens.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const raw = new DatabaseSync(file);
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec("PRAGMA synchronous = NORMAL");
  raw.exec("PRAGMA foreign_keys = ON");
  raw.exec("PRAGMA busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(raw) });
  const stamp = raw.prepare("select total_changes() || ':' || (select data_version from pragma_data_version) as stamp");
  return {
    db,
    dialect: "sqlite",
    location: file,
    // Kysely's SQLite driver runs one statement or transaction at a time: waiting for the
    // connection means no transaction is half done when the stamp is read.
    changeStamp: () => db.getExecutor().provideConnection(async () => (stamp.get() as { stamp: string }).stamp),
    close: () => db.destroy(),
  };
}

async function openPostgres(
  url: string,
  schema: string | undefined,
  onConnectionError: (error: Error) => void,
): Promise<DatabaseHandle> {
  const pg = await import("pg");
  const pool = new pg.default.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle connection that the server drops (restart, failover) must not crash the process;
  // the pool replaces it, and queries meanwhile fail and are reported (healthz answers 503).
  pool.on("error", (error) => onConnectionError(error));
  pool.on("connect", prepareNamedStatements);
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replaceAll('"', "")}"`);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    location: databaseLocation({ databaseUrl: url, dataDir: "" }),
    changeStamp: async () =>
      (
        await pool.query<{ stamp: string }>({
          name: "upskill_change_stamp",
          text: "select pg_current_snapshot()::text as stamp",
        })
      ).rows[0]!.stamp,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

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
