import type { Kysely } from "kysely";

/**
 * The public site's brand and sections as admins edit them: one row per section (`brand`,
 * `hero`, `services`, `features`, `advantages`, `about-us`, the three policies), each a JSON
 * document as saved (`draft`) and as visitors see it (`published`); a section with no published
 * document shows the product's own copy. Images (the logo, the hero picture) are re-encoded
 * files named by their content's hash, so a published page keeps its image while a draft
 * changes another, and browsers may keep them for a year.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_section")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("draft", "text")
    .addColumn("published", "text")
    .addColumn("draftAt", "text")
    .addColumn("publishedAt", "text")
    .addColumn("updatedBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .execute();
  await db.schema
    .createTable("site_image")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("contentType", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    // Base64: the same text column on SQLite and PostgreSQL; images are small once re-encoded.
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_image").ifExists().execute();
  await db.schema.dropTable("site_section").ifExists().execute();
}
