import { sql, type Kysely } from "kysely";

/**
 * The staff table's sorts and filters: learners by phone; learners with an application at a
 * placement stage; and a certificate job's whole filter (batch, resume, unread, activity,
 * stage, joining days), kept with the clock it was read by, so every batch of the job reads the
 * same learners.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index user_learner_phone_idx on "user" (coalesce("role", ''), "phone", "id")`.execute(db);
  await db.schema
    .createIndex("job_application_stage_idx")
    .on("job_application")
    .columns(["stage", "learnerId"])
    .execute();
  await db.schema.alterTable("document_job").addColumn("filter", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("document_job").dropColumn("filter").execute();
  await db.schema.dropIndex("job_application_stage_idx").ifExists().execute();
  await db.schema.dropIndex("user_learner_phone_idx").ifExists().execute();
}
