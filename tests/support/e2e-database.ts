// Reads and writes in the e2e server's database, for what a browser cannot set up (when a
// learner was last seen, a resume on file): PostgreSQL when the server was given DATABASE_URL,
// else its SQLite file, as tests/support/e2e-roles.ts finds them.
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import pg from "pg";
import { dataDirNotePath } from "./data-dir-note";

/** Runs one statement (`?` for each value) and returns its rows. */
export async function runSql(
  baseURL: string,
  statement: string,
  values: (string | number | null)[] = [],
): Promise<Record<string, unknown>[]> {
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      let n = 0;
      const result = await client.query(
        statement.replace(/\?/g, () => `$${++n}`),
        values,
      );
      return result.rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  }
  const directory = fs.readFileSync(dataDirNotePath(new URL(baseURL).port), "utf8");
  const db = new DatabaseSync(path.join(directory, "upskill.sqlite"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const prepared = db.prepare(statement);
    if (prepared.columns().length > 0) return prepared.all(...(values as SQLInputValue[]));
    prepared.run(...(values as SQLInputValue[]));
    return [];
  } finally {
    db.close();
  }
}
