import { sql, type Kysely } from "kysely";

/**
 * When the learner read their offer letter; null until they do, and null again when an admin
 * replaces it (a new letter is unread).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("offer_letter").addColumn("readAt", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table "offer_letter" drop column "readAt"`.execute(db);
}
