// Roles cannot be set from the browser (by design), so browser tests set them in the e2e
// server's database, as `npm run role` does; and what a test must read or set there that no page
// shows (how many rows a retry stored) goes through the same door.
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect } from "@playwright/test";
import pg from "pg";
import { dataDirNotePath } from "./data-dir-note";

type Value = string | number | null;

/**
 * Runs statements on the e2e server's database: PostgreSQL when the server was given
 * DATABASE_URL, else its SQLite file (tests/e2e/start-server.ts notes the data directory; a
 * server a test started itself on SQLite passes its `dataDir`). Parameters are written `?`.
 * Answers the last statement's rows and how many rows it changed.
 */
export async function onE2eDatabase(
  baseURL: string,
  statements: { sql: string; params?: Value[] }[],
  dataDir?: string,
): Promise<{ rows: Record<string, unknown>[]; changes: number }> {
  let last = { rows: [] as Record<string, unknown>[], changes: 0 };
  if (process.env.DATABASE_URL && !dataDir) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      for (const { sql, params = [] } of statements) {
        let n = 0;
        const result = await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        );
        last = { rows: result.rows as Record<string, unknown>[], changes: result.rowCount ?? 0 };
      }
    } finally {
      await client.end();
    }
    return last;
  }
  const port = new URL(baseURL).port;
  const directory = dataDir ?? fs.readFileSync(dataDirNotePath(port), "utf8");
  const db = new DatabaseSync(path.join(directory, "upskill.sqlite"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    for (const { sql, params = [] } of statements) {
      const statement = db.prepare(sql);
      if (statement.columns().length > 0) last = { rows: statement.all(...params), changes: 0 };
      else last = { rows: [], changes: Number(statement.run(...params).changes) };
    }
  } finally {
    db.close();
  }
  return last;
}

/** Sets a role in the e2e server's database, as `npm run role` does. */
export async function setRole(baseURL: string, email: string, role: string | null, dataDir?: string) {
  const { changes } = await onE2eDatabase(
    baseURL,
    [{ sql: `update "user" set role = ? where email = ?`, params: [role, email] }],
    dataDir,
  );
  expect(changes).toBe(1);
}
