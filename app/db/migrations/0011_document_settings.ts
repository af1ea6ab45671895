import { sql, type Kysely } from "kysely";

/**
 * What every new document is signed with: the signatory's name and title, and optionally an
 * image of their signature (a PNG in upload storage). One row (id 1), written by admins; absent
 * until the first save.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("document_settings")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("signatoryName", "text", (c) => c.notNull())
    .addColumn("signatoryTitle", "text", (c) => c.notNull())
    .addColumn("signatureKey", "text")
    // Who saved it last; null once that account is deleted.
    .addColumn("updatedBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("document_settings").ifExists().execute();
}
