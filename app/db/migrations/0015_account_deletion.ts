import type { Kysely } from "kysely";

/**
 * Accounts their owners asked to delete: erased once `eraseAfter` has passed, unless the owner
 * signs in before then (which removes the row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("account_deletion")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("requestedAt", "text", (c) => c.notNull())
    .addColumn("eraseAfter", "text", (c) => c.notNull())
    .execute();
  // The eraser's scan for what is due.
  await db.schema.createIndex("account_deletion_due_idx").on("account_deletion").column("eraseAfter").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_deletion").ifExists().execute();
}
