// The upgrade fixtures (tests/fixtures/upskill-0009.*, made by tests/fixtures/make-0009-fixtures.ts):
// the rows they hold, and how a test opens a copy of one on SQLite or PostgreSQL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { openDatabase, type DatabaseHandle, type Dialect } from "~/db/database.server";

const fixtures = path.resolve(import.meta.dirname, "..", "fixtures");
const sqliteFixture = path.join(fixtures, "upskill-0009.sqlite.gz");
const postgresFixture = path.join(fixtures, "upskill-0009.postgres.sql");

/** The schema the PostgreSQL dump names; a test loads it under a name of its own. */
export const fixtureSchema = "upskill_fixture_0009";
export const fixturePassword = "fixture-password-1";
export const lastFixtureMigration = "0009_offer_letter_read";

export const fixtureLearner = {
  id: "6f1c2a9e-3b7d-4c55-9a1e-0d2b8f4e7a11",
  email: "asha.patil@example.com",
  username: "Asha Patil",
};
const admin = {
  id: "0b8e4d2c-71a5-4f36-8c9d-5e3a2f1b6c40",
  email: "ravi.kulkarni@example.com",
  username: "Ravi Kulkarni",
};

/** Every row of the fixtures, by table (the password hash is made when they are). */
export function fixtureRows(passwordHash: string): Record<string, Record<string, unknown>[]> {
  const person = (who: typeof admin, extra: Record<string, unknown>) => ({
    id: who.id,
    name: who.username,
    username: who.username,
    email: who.email,
    emailVerified: false,
    image: null,
    phone: "9876543210",
    gender: "female",
    ...extra,
  });
  return {
    user: [
      person(admin, {
        course: null,
        gender: "male",
        role: "admin",
        roleChangedAt: "2026-01-05T04:30:00.000Z",
        createdAt: "2026-01-05T04:00:00.000Z",
        updatedAt: "2026-01-05T04:30:00.000Z",
      }),
      person(fixtureLearner, {
        course: "Python",
        role: null,
        roleChangedAt: null,
        createdAt: "2026-02-10T06:15:00.000Z",
        updatedAt: "2026-02-10T06:15:00.000Z",
      }),
    ],
    account: [admin, fixtureLearner].map((who, i) => ({
      id: `a${i}c3e5f7-0000-4000-8000-00000000000${i}`,
      accountId: who.id,
      providerId: "credential",
      userId: who.id,
      password: passwordHash,
      createdAt: i ? "2026-02-10T06:15:00.000Z" : "2026-01-05T04:00:00.000Z",
      updatedAt: i ? "2026-02-10T06:15:00.000Z" : "2026-01-05T04:00:00.000Z",
    })),
    task_link: [
      {
        id: "5d0c1b2a-1111-4a6b-9c0d-0e1f2a3b4c01",
        learnerId: fixtureLearner.id,
        link: "https://github.com/ashapatil/python-day1",
        createdAt: "2026-02-11T10:00:00.000Z",
      },
      {
        id: "5d0c1b2a-1111-4a6b-9c0d-0e1f2a3b4c02",
        learnerId: fixtureLearner.id,
        link: "https://github.com/ashapatil/python-day2",
        createdAt: "2026-02-12T10:30:00.000Z",
      },
    ],
    message: [
      ["notice", "<p>Welcome to the Python batch! Classes start Monday at 10:00.</p>", "2026-02-10T07:00:00.000Z"],
      ["task", "<p>Day 1: write a function that reverses a string.</p>", "2026-02-11T05:00:00.000Z"],
      ["certificate", "<p>Certificate of completion: Python Foundations.</p>", "2026-02-20T09:00:00.000Z"],
    ].map(([kind, body, sentAt], i) => ({
      id: `7e2f3a4b-2222-4c5d-8e6f-7a8b9c0d1e0${i}`,
      learnerId: fixtureLearner.id,
      kind,
      body,
      sentBy: admin.id,
      sentAt,
      readAt: i === 0 ? "2026-02-10T08:00:00.000Z" : null,
    })),
    offer_letter: [
      {
        learnerId: fixtureLearner.id,
        body: "<p>We are pleased to offer you the role of Junior Python Developer.</p>",
        updatedBy: admin.id,
        updatedAt: "2026-02-21T09:00:00.000Z",
        readAt: null,
      },
    ],
    resume: [
      {
        learnerId: fixtureLearner.id,
        storageKey: "resumes/3f2a9c0d1e4b5a6978c1d2e3f4a5b6c7.pdf",
        fileName: "Asha Patil CV.pdf",
        size: 48213,
        contentType: "application/pdf",
        uploadedAt: "2026-02-10T06:40:00.000Z",
      },
    ],
    profile_photo: [
      {
        learnerId: fixtureLearner.id,
        storageKey: "photos/8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d.webp",
        updatedAt: "2026-02-10T06:45:00.000Z",
      },
    ],
    staff_audit: [
      {
        id: "9c8d7e6f-3333-4a5b-8c7d-6e5f4a3b2c10",
        actorId: admin.id,
        actorName: admin.username,
        action: "send",
        detail: "notice",
        targetId: fixtureLearner.id,
        target: fixtureLearner.username,
        count: 1,
        createdAt: "2026-02-10T07:00:00.000Z",
      },
    ],
  };
}

/** How many rows each table of the fixtures holds. */
export const fixtureCounts = Object.fromEntries(
  Object.entries(fixtureRows("")).map(([table, rows]) => [table, rows.length]),
);

/** Writes the SQLite fixture as `upskill.sqlite` into a data directory. */
export function writeSqliteFixture(dataDir: string): void {
  fs.writeFileSync(path.join(dataDir, "upskill.sqlite"), gunzipSync(fs.readFileSync(sqliteFixture)), { mode: 0o600 });
}

export interface FixtureHandle extends DatabaseHandle {
  dispose(): Promise<void>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * A copy of the 0009 fixture, open as the app opens its database: on SQLite in a data directory
 * of its own (`dataDir`), on PostgreSQL in a schema of its own.
 */
export async function openUpgradeFixture(dialect: Dialect): Promise<FixtureHandle & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-upgrade-"));
  if (dialect === "sqlite") {
    writeSqliteFixture(dataDir);
    const handle = await openDatabase({ dataDir });
    return {
      ...handle,
      dataDir,
      async dispose() {
        await handle.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = `upgrade_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await loadPostgresFixture(postgresUrl!, schema);
  const handle = await openDatabase({ databaseUrl: postgresUrl!, dataDir, schema });
  return {
    ...handle,
    dataDir,
    async dispose() {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

/** Loads the PostgreSQL dump into a new schema `schema` of the database at `url`. */
export async function loadPostgresFixture(url: string, schema: string): Promise<void> {
  const dump = fs
    .readFileSync(postgresFixture, "utf8")
    // psql's own commands (newer pg_dump writes \restrict lines): not SQL.
    .split("\n")
    .filter((line) => !line.startsWith("\\"))
    .join("\n")
    .replaceAll(fixtureSchema, schema);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Migration 0006 put pg_trgm in public, for every schema: the dump names its operator class.
    await client.query("create extension if not exists pg_trgm with schema public").catch(() => {
      // another test making it at the same moment: it is there
    });
    await client.query(dump);
  } finally {
    await client.end();
  }
}
