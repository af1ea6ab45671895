// A built server process to probe over HTTP (permission matrix, fuzzing, crash safety), on SQLite
// or on a PostgreSQL database of its own, with helpers to make accounts and read its database.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { databaseUrlFor, newDatabaseName, onServer } from "./postgres-databases";
import { startServerProcess, type ServerProcess } from "./server-process";

export type ProbeDialect = "sqlite" | "postgres";

export interface Account {
  id: string;
  email: string;
  username: string;
  /** The session cookie, ready for a `cookie` header. */
  cookie: string;
}

export interface ProbeServer {
  dialect: ProbeDialect;
  process: ServerProcess;
  url: string;
  /** Runs SQL on the server's database (placeholders: `?`, turned into $n on PostgreSQL). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  signUp(name: string): Promise<Account>;
  setRole(account: Account, role: string | null): Promise<void>;
  /** Kills the process at once (SIGKILL), as a crash or power cut would. */
  crash(): Promise<void>;
  /** Starts the process again on the same data (after stop or crash). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

/** Whether a PostgreSQL pass can run (TEST_DATABASE_URL set); the caller skips it with a reason otherwise. */
export const hasPostgres = Boolean(postgresUrl);

export async function startProbeServer(dialect: ProbeDialect, env: Record<string, string> = {}): Promise<ProbeServer> {
  let databaseUrl: string | undefined;
  let database: string | undefined;
  if (dialect === "postgres") {
    database = newDatabaseName("upskill_probe");
    await onServer(postgresUrl!, `CREATE DATABASE "${database}"`);
    databaseUrl = databaseUrlFor(postgresUrl!, database);
  }
  const baseEnv = {
    LOG_LEVEL: "warn",
    // Every probe comes from 127.0.0.1: the per-IP auth limit would soon refuse them all.
    AUTH_RATE_LIMIT: "1000000",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  } as Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-probe-"));
  let child = await startServerProcess({ ...baseEnv, DATA_DIR: dataDir }, { keepLogs: false });
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 2 }) : undefined;

  const server: ProbeServer = {
    dialect,
    process: child,
    get url() {
      return child.url;
    },
    async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
      if (pool) {
        let n = 0;
        return (
          await pool.query(
            text.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows as T[];
      }
      const db = new DatabaseSync(path.join(dataDir, "upskill.sqlite"));
      try {
        db.exec("PRAGMA busy_timeout = 5000");
        return db.prepare(text).all(...(params as never[])) as T[];
      } finally {
        db.close();
      }
    },
    async signUp(name) {
      const id = randomUUID().slice(0, 8);
      const username = `${name}${id}`;
      const email = `${name.toLowerCase()}-${id}@example.com`;
      const response = await fetch(`${child.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: child.url },
        body: JSON.stringify({
          username,
          email,
          phone: "9876543210",
          course: "Python",
          gender: "female",
          password: "probe-password-1",
          confirmPassword: "probe-password-1",
        }),
      });
      if (response.status !== 200) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
      const cookie = response.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const [row] = await server.query<{ id: string }>(`select id from "user" where email = ?`, [email]);
      return { id: row!.id, email, username, cookie };
    },
    async setRole(account, role) {
      await server.query(`update "user" set role = ? where id = ?`, [role, account.id]);
    },
    async crash() {
      child.child.kill("SIGKILL");
      await child.exited;
    },
    async restart() {
      if (child.child.exitCode === null && child.child.signalCode === null) await child.stop();
      child = await startServerProcess({ ...baseEnv, DATA_DIR: dataDir }, { keepLogs: false });
      server.process = child;
    },
    async stop() {
      if (child.child.exitCode === null && child.child.signalCode === null) await child.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await pool?.end();
      if (database) await onServer(postgresUrl!, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    },
  };
  return server;
}
