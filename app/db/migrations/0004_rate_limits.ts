import type { Kysely } from "kysely";

/**
 * One table of attempt counters for every limit the app sets itself (per email, per email and
 * address, per learner action), each row carrying its own expiry so a periodic purge can drop
 * it without knowing which limit wrote it. The per-email table it replaces held only transient
 * counters, so nothing is carried over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limit")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("windowStart", "bigint", (c) => c.notNull())
    .addColumn("expiresAt", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_expires_idx").on("rate_limit").column("expiresAt").execute();
  await db.schema.dropTable("emailRateLimit").execute();
}
