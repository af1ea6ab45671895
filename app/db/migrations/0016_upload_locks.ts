import type { Kysely } from "kysely";

/**
 * Which request may write an unfinished upload, shared by every instance: a tus PATCH resent to
 * another instance while the first is still writing must wait, or end the first, never write
 * beside it. A row lives while its request runs, renewed; an instance that dies lets go when
 * `expiresAt` (milliseconds since the epoch) passes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("upload_lock")
    .addColumn("uploadId", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("upload_lock").ifExists().execute();
}
