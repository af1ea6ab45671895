import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, it } from "vitest";
import { databaseUrlFor, newDatabaseName, onServer } from "../support/postgres-databases";

const postgresUrl = process.env.TEST_DATABASE_URL;

// After a bulk load the planner needs statistics; where autovacuum is off (as on the machines the
// tests run on) or has not come round yet, the seed gathers them itself.
it.skipIf(!postgresUrl)(
  "npm run seed leaves PostgreSQL's planner statistics for what it loaded",
  async () => {
    const database = newDatabaseName("upskill_seed");
    await onServer(postgresUrl!, `CREATE DATABASE "${database}"`);
    const databaseUrl = databaseUrlFor(postgresUrl!, database);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-seed-"));
    try {
      const seeded = spawnSync(process.execPath, ["scripts/seed.ts", "--learners", "50"], {
        env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, APP_URL: "http://127.0.0.1:3000" },
        encoding: "utf8",
      });
      expect(seeded.status, seeded.stderr).toBe(0);
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ relname: string }>(
          `select relname from pg_stat_user_tables where relname in ('user', 'message') and last_analyze is not null`,
        );
        expect(rows.map((row) => row.relname).sort()).toEqual(["message", "user"]);
      } finally {
        await client.end();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await onServer(postgresUrl!, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    }
  },
  60_000,
);
