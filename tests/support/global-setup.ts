import os from "node:os";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { databaseUrlFor, newDatabaseName, onServer } from "./postgres-databases";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database each test's database is copied from (PostgreSQL pass only). */
    postgresTemplate: string;
  }
}

/**
 * Says once, at the top of every run, whether the PostgreSQL pass runs; for that pass, migrates
 * the database the tests' databases are copied from, and drops it at the end.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log("PostgreSQL pass skipped: TEST_DATABASE_URL is not set. Database tests run on SQLite only.");
    return;
  }
  console.log(`Database tests run on SQLite and on PostgreSQL (${url.replace(/:[^:@/]*@/, ":***@")}).`);
  const template = await createMigratedTemplate(url);
  project.provide("postgresTemplate", template.name);
  return () => template.drop();
}

/** Creates the run's template: a database brought to the latest migration, then left alone. */
async function createMigratedTemplate(serverUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = newDatabaseName("upskill_template");
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  const handle = await openDatabase({ databaseUrl: databaseUrlFor(serverUrl, name), dataDir: os.tmpdir() });
  try {
    await migrateToLatest(handle.db);
  } finally {
    // A template can be copied only while nobody is connected to it.
    await handle.close();
  }
  return { name, drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
