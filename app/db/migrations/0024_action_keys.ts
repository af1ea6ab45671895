import { sql, type Kysely } from "kysely";

/**
 * The keys browsers put on each change they send, with the first answer given to each, so that
 * a change sent again (its answer was lost on the way back) is answered without being made
 * twice. Kept for a day, in the database so that every instance knows them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("action_key")
    // Whose key: a user's id, or "anonymous" and the path for a public form.
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('running', 'answered')`))
    .addColumn("status", "integer")
    .addColumn("headers", "text")
    .addColumn("body", "text")
    .addColumn("nonce", "text")
    .addColumn("createdAt", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("action_key_pk", ["owner", "key"])
    .execute();
  await db.schema.createIndex("action_key_created_idx").on("action_key").column("createdAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("action_key").ifExists().execute();
}
