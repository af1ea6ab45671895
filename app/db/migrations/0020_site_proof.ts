import type { Kysely } from "kysely";

/**
 * What the public site shows as proof and about the institute, managed by admins:
 * testimonials (shown only once the learner's consent is recorded), hiring partners, and the
 * text of pages such as /about. Images are re-encoded by sharp and kept as small WebP data URLs,
 * so the cached public pages carry them without another request or a storage read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("testimonial")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("course", "text", (c) => c.notNull())
    .addColumn("quote", "text", (c) => c.notNull())
    .addColumn("photo", "text")
    // When and how the learner agreed to be quoted; null: not shown anywhere public.
    .addColumn("consentAt", "text")
    .addColumn("consentNote", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("testimonial_consent").on("testimonial").columns(["consentAt", "createdAt"]).execute();
  await db.schema
    .createTable("hiring_partner")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("logo", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("site_page")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("updatedBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_page").ifExists().execute();
  await db.schema.dropTable("hiring_partner").ifExists().execute();
  await db.schema.dropTable("testimonial").ifExists().execute();
}
