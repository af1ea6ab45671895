import { sql, type Kysely } from "kysely";

/**
 * A certificate's Open Badges credential, signed once and served as stored, byte for byte, on
 * every fetch. Null for offer letters, and for a certificate until its credential is signed
 * (right after it is recorded, or on the first fetch for certificates issued before this).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("document").addColumn("credential", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table "document" drop column "credential"`.execute(db);
}
