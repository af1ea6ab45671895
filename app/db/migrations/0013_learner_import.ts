import type { Kysely } from "kysely";

/**
 * A learner import between its dry run and its Import click: the rows parsed from the uploaded
 * CSV, kept server-side under a random id for an hour, for the admin who uploaded it only. The
 * Import click applies exactly these rows (the file is not sent again), and the result (totals
 * and the failed rows) stays here for the result page and its CSV of failed rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("learner_import")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("actorId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("fileName", "text", (c) => c.notNull())
    // add | update: what an email already registered to a learner does.
    .addColumn("mode", "text", (c) => c.notNull())
    // pending (dry run shown) | importing | done
    .addColumn("status", "text", (c) => c.notNull())
    // JSON: the header's extra columns, and each data row with its line number.
    .addColumn("extraColumns", "text", (c) => c.notNull())
    .addColumn("rows", "text", (c) => c.notNull())
    // JSON once done: totals and the failed rows with their reasons.
    .addColumn("result", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .execute();
  // The purge of expired imports.
  await db.schema.createIndex("learner_import_expires_idx").on("learner_import").column("expiresAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("learner_import").ifExists().execute();
}
