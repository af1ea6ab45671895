import { PostgresAdapter, sql } from "kysely";
import { Migrator, type Migration, type MigrationResultSet } from "kysely/migration";
import type { Db } from "./database.server";
import { migrations } from "./migrations";

/** Brings the schema up to date. Safe to run at every start and from several instances. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema unless told which one;
  // with several schemas in one database (tests, side-by-side instances) it would find another
  // schema's and skip creating its own. Name the connection's own schema.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const result = await migrator.migrateToLatest();
    if (!result.error) return result;
    // Kysely's introspection reads every schema's tables; another schema dropped meanwhile (a
    // side-by-side instance or test cleaning up) fails it with "schema … does not exist".
    if (attempt < 3 && isOtherSchemaGone(result.error, migrationTableSchema)) continue;
    throw result.error instanceof Error ? result.error : new Error(String(result.error));
  }
}

function isOtherSchemaGone(error: unknown, ownSchema: string | undefined): boolean {
  const { code, message = "" } = (error ?? {}) as { code?: string; message?: string };
  return code === "3F000" && ownSchema !== undefined && !message.includes(`"${ownSchema}"`);
}
