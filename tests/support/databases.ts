import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, inject, it } from "vitest";
import { openDatabase, type DatabaseHandle, type Db, type Dialect } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { databaseUrlFor, newDatabaseName, onServer } from "./postgres-databases";

export interface TestDatabase {
  dialect: Dialect;
  /** Opens a fresh database of this kind (its own SQLite file or PostgreSQL database), migrated unless told not to. */
  open(options?: { migrate?: boolean }): Promise<TestDatabaseHandle>;
}

export interface TestDatabaseHandle extends DatabaseHandle {
  /** Options that open the same database again (as a second instance would). */
  reopen(): Promise<DatabaseHandle>;
  /** Closes it and deletes its data. */
  dispose(): Promise<void>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

const sqlite: TestDatabase = {
  dialect: "sqlite",
  async open(options = {}) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-test-"));
    const handle = await openDatabase({ dataDir });
    if (options.migrate !== false) await migrateToLatest(handle.db);
    return {
      ...handle,
      reopen: () => openDatabase({ dataDir }),
      async dispose() {
        await handle.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: TestDatabase = {
  dialect: "postgres",
  async open(options = {}) {
    // A copy of the run's migrated database (tests/support/global-setup.ts), or an empty one.
    const name = newDatabaseName("upskill_test");
    const template = options.migrate === false ? "" : ` TEMPLATE "${inject("postgresTemplate")}"`;
    await onServer(postgresUrl!, `CREATE DATABASE "${name}"${template}`);
    const url = databaseUrlFor(postgresUrl!, name);
    const handle = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
    return {
      ...handle,
      reopen: () => openDatabase({ databaseUrl: url, dataDir: os.tmpdir() }),
      async dispose() {
        await handle.close();
        await onServer(postgresUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      },
    };
  },
};

/**
 * Runs a suite once on SQLite and once on PostgreSQL. Without TEST_DATABASE_URL the
 * PostgreSQL pass is reported as a skipped test that says why; it never passes silently.
 */
export function describeEachDatabase(name: string, suite: (database: TestDatabase) => void): void {
  describe(`${name} [sqlite]`, () => suite(sqlite));
  if (postgresUrl) {
    describe(`${name} [postgres]`, () => suite(postgres));
  } else {
    describe(`${name} [postgres]`, () => {
      it.skip("PostgreSQL pass skipped: TEST_DATABASE_URL is not set", () => {});
    });
  }
}

/** A user row written straight into the table (no account, no session); returns its id. */
export async function insertUser(db: Db, user: { name: string; email: string; role?: string | null }): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("user")
    .values({
      id,
      name: user.name,
      username: user.name.toLowerCase(),
      email: user.email,
      emailVerified: false,
      createdAt: now,
      updatedAt: now,
      role: user.role ?? null,
    })
    .execute();
  return id;
}

/** The kept-answer stamp of a session token alone (DatabaseHandle.keptAnswerStamp also says when it ends). */
export const stampFor = (on: Pick<DatabaseHandle, "keptAnswerStamp">, token: string) =>
  on.keptAnswerStamp(token).then((read) => read.stamp);
