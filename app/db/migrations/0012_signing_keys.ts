import { sql, type Kysely } from "kysely";

/**
 * The Ed25519 keys that sign documents, kept in the database so that every instance signs with
 * the same one and publishes the same set. A retired key stays (its public half is still
 * published, so what it signed keeps verifying); at most one key is active, which the partial
 * unique index holds even when two instances create the first key at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("signing_key")
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("publicJwk", "text", (c) => c.notNull())
    .addColumn("privateJwk", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("retiredAt", "text")
    .execute();
  // One row may match "retiredAt is null": every active row has the same indexed value.
  await sql`create unique index "signing_key_one_active" on "signing_key" ((1)) where "retiredAt" is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("signing_key").execute();
}
