// Databases of their own on the test PostgreSQL server, for the server tests (each test's, copied
// from the run's migrated one: tests/support/global-setup.ts) and the probe servers.
import { randomUUID } from "node:crypto";
import pg from "pg";

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
