import { PostgresAdapter, sql } from "kysely";
import { Migrator, type Migration, type MigrationResultSet } from "kysely/migration";
import type { Logger } from "~/logging/logger.server";
import { watchOutsideWrites } from "./change-versions.server";
import type { DatabaseHandle, Db } from "./database.server";
import { migrations as releasedMigrations } from "./migrations";

/**
 * A migration failed. Every migration of that run is rolled back with it (they run in one
 * transaction, on SQLite as on PostgreSQL), so the database is as it was before.
 */
export class MigrationError extends Error {
  constructor(
    /** The migration that failed; undefined when the bookkeeping around them failed. */
    readonly migration: string | undefined,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      migration
        ? `Database migration ${migration} failed: ${reason}. The database was left as it was before this start; fix the cause and start again.`
        : `Database migrations could not run: ${reason}`,
      { cause },
    );
    this.name = "MigrationError";
  }
}

/**
 * Brings the schema up to date. Safe to run at every start and from several instances.
 * `migrations` is the released list; tests append one that fails.
 */
export async function migrateToLatest(
  db: Db,
  migrations: Record<string, Migration> = releasedMigrations,
): Promise<MigrationResultSet> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema unless told which one;
  // with several schemas in one database (tests, side-by-side instances) it would find another
  // schema's and skip creating its own. Name the connection's own schema.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const result = await migrator.migrateToLatest();
    if (!result.error) {
      if (migrationTableSchema && "0025_change_versions" in migrations) await watchOutsideWrites(db);
      return result;
    }
    // Kysely's introspection reads every schema's tables; another schema dropped meanwhile (a
    // side-by-side instance or test cleaning up) fails it with "schema … does not exist".
    if (attempt < 3 && isOtherSchemaGone(result.error, migrationTableSchema)) continue;
    throw new MigrationError(result.results?.find((r) => r.status === "Error")?.migrationName, result.error);
  }
}

/** migrateToLatest at a server's start, logging which migrations it applied ("database ready"). */
export async function migrateDatabase(database: DatabaseHandle, logger: Logger): Promise<void> {
  const result = await migrateToLatest(database.db);
  const applied = result.results?.filter((r) => r.status === "Success").map((r) => r.migrationName) ?? [];
  logger.info({ database: database.dialect, location: database.location, applied }, "database ready");
}

function isOtherSchemaGone(error: unknown, ownSchema: string | undefined): boolean {
  const { code, message = "" } = (error ?? {}) as { code?: string; message?: string };
  return code === "3F000" && ownSchema !== undefined && !message.includes(`"${ownSchema}"`);
}
