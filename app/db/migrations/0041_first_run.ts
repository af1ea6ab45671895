import type { Kysely } from "kysely";

/**
 * The admins' first-run checklist on /staff, one row for the institute: when an admin dismissed
 * it, or when every item was found done (after which nobody's visit computes it again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("first_run")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("dismissedAt", "text")
    .addColumn("completedAt", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("first_run").ifExists().execute();
}
