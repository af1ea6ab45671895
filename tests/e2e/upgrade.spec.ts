import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { migrations } from "~/db/migrations";
import { hasPostgres } from "../support/probe-server";
import { freePort, logRecords, root, serverEntry, startServerProcess } from "../support/server-process";
import {
  fixtureLearner,
  fixturePassword,
  lastFixtureMigration,
  loadPostgresFixture,
  writeSqliteFixture,
} from "../support/upgrade-fixtures";

// Upgrading is starting the new version on the old data: the built server, started on a
// database of migration 0009 (tests/fixtures/), migrates it and serves the old rows; when a
// migration fails, the start stops with one line naming it and the database stays as it was.
// (tests/server/upgrades.test.ts checks the schema and every row on both databases.)

const newer = (lines: string[]) => logRecords(lines).find((record) => record.msg === "database ready")?.applied;

for (const dialect of ["sqlite", "postgres"] as const) {
  test(`a database of migration 0009 is migrated on start and its data served [${dialect}]`, async () => {
    test.skip(dialect === "postgres" && !hasPostgres, "PostgreSQL pass skipped: TEST_DATABASE_URL is not set");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-upgrade-e2e-"));
    const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: "" };
    const schema = `upgrade_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    if (dialect === "sqlite") {
      writeSqliteFixture(dataDir);
    } else {
      await loadPostgresFixture(process.env.TEST_DATABASE_URL!, schema);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set("options", `-c search_path=${schema}`);
      env.DATABASE_URL = url.toString();
    }
    try {
      const server = await startServerProcess(env);
      try {
        // Every migration released after the fixture's last, in order.
        expect(newer(server.lines)).toEqual(Object.keys(migrations).filter((name) => name > lastFixtureMigration));
        expect(newer(server.lines)).toContain("0010_documents");
        const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { origin: server.url, "content-type": "application/json" },
          body: JSON.stringify({ email: fixtureLearner.email, password: fixturePassword }),
        });
        expect(signIn.status).toBe(200);
        const cookie = signIn.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .join("; ");
        const dashboard = await (await fetch(`${server.url}/dashboard.data`, { headers: { cookie } })).text();
        expect(dashboard).toContain("https://github.com/ashapatil/python-day2");
        expect(dashboard).toContain("Asha Patil CV.pdf");
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === "postgres") {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      }
    }
  });
}

test("a migration that fails stops the start with a line naming it, and the database stays as it was", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-upgrade-e2e-"));
  try {
    writeSqliteFixture(dataDir);
    const file = path.join(dataDir, "upskill.sqlite");
    // A table in the way of migration 0013, after three that succeed in the same start.
    const before = (() => {
      const db = new DatabaseSync(file);
      try {
        db.exec(`create table learner_import (id text primary key)`);
        return db.prepare(`select type, name, sql from sqlite_schema order by name`).all();
      } finally {
        db.close();
      }
    })();

    const child = spawn(process.execPath, [serverEntry], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        PORT: String(await freePort()),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
      },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(output).toContain(
      'Database migration 0013_learner_import failed: table "learner_import" already exists. The database was left as it was before this start; fix the cause and start again.\n',
    );

    const db = new DatabaseSync(file);
    try {
      expect(db.prepare(`select type, name, sql from sqlite_schema order by name`).all()).toEqual(before);
      const recorded = db.prepare(`select max(name) as name from kysely_migration`).get();
      expect(recorded?.name).toBe(lastFixtureMigration);
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
