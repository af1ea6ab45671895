// Roles cannot be set from the browser (by design), so browser tests set them in the e2e
// server's database, as `npm run role` does.
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect } from "@playwright/test";
import pg from "pg";
import { dataDirNotePath } from "./data-dir-note";

/**
 * Sets a role in the e2e server's database, as `npm run role` does: PostgreSQL when the server
 * was given DATABASE_URL, else its SQLite file (tests/e2e/start-server.ts notes the data directory;
 * a server a test started itself on SQLite passes its `dataDir`).
 */
export async function setRole(baseURL: string, email: string, role: string | null, dataDir?: string) {
  if (process.env.DATABASE_URL && !dataDir) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const result = await client.query(`update "user" set role = $1 where email = $2`, [role, email]);
      expect(result.rowCount).toBe(1);
    } finally {
      await client.end();
    }
    return;
  }
  const port = new URL(baseURL).port;
  const directory = dataDir ?? fs.readFileSync(dataDirNotePath(port), "utf8");
  const db = new DatabaseSync(path.join(directory, "upskill.sqlite"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const result = db.prepare(`update "user" set role = ? where email = ?`).run(role, email);
    expect(result.changes).toBe(1);
  } finally {
    db.close();
  }
}
