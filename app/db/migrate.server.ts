import { Migrator, type Migration, type MigrationResultSet } from "kysely";
import type { Db } from "./database.server";
import { migrations } from "./migrations";

/** Brings the schema up to date. Safe to run at every start and from several instances. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return result;
}
