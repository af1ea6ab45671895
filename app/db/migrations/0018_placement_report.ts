import type { Kysely } from "kysely";

/**
 * The outcome report counts every batch's enrolments, graduates and graduates seeking a job in
 * one grouped statement: this index holds all it reads, in batch order, so the count never
 * reads the table (on 30,000 enrolments, SQLite's count went from ~38 ms to ~4 ms).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("enrolment_report_idx")
    .on("enrolment")
    .columns(["batchId", "graduation", "seekingAtGraduation"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("enrolment_report_idx").ifExists().execute();
}
