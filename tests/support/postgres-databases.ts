// PostgreSQL databases for the server tests: each test gets a database of its own, copied from
// one migrated once per run (CREATE DATABASE … TEMPLATE copies it in a fraction of the time
// the migrations take, and a test's database holds nothing of another's).
import { randomUUID } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { openDatabase } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";

/** The address of a database on the same server as `serverUrl`. */
export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A database name no other test or run uses. */
export const newDatabaseName = (prefix: string) => `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;

/** Runs statements that create and drop databases, from the server's own database. */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Creates the run's template: a database brought to the latest migration, then left alone. */
export async function createMigratedTemplate(serverUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
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
