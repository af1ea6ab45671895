import type { Migration } from "kysely";

/**
 * One ordered set of migrations for SQLite and PostgreSQL. Names sort in the order they run;
 * a migration, once released, is never edited: add a new one.
 */
export const migrations: Record<string, Migration> = {};
