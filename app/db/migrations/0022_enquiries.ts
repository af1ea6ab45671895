import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * Enquiries from the public site's form, and what staff did with each (status changes, notes,
 * sign-up invitations). The mail queue now also sends email that is about no account (an
 * enquiry to the institute, an invitation to an enquirer), so `mail_job.learnerId` may be null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("enquiry")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("course", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("callbackTime", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('new', 'contacted', 'enrolled', 'closed')`))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  // The inbox, newest first, whole or by status; the staff header's count of new ones.
  await db.schema.createIndex("enquiry_created_idx").on("enquiry").columns(["createdAt", "id"]).execute();
  await db.schema.createIndex("enquiry_status_idx").on("enquiry").columns(["status", "createdAt", "id"]).execute();

  await db.schema
    .createTable("enquiry_event")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("enquiryId", "text", (c) => c.notNull().references("enquiry.id").onDelete("cascade"))
    .addColumn("actorId", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("actorName", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('status', 'note', 'invite')`))
    .addColumn("status", "text")
    .addColumn("note", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("enquiry_event_enquiry_idx")
    .on("enquiry_event")
    .columns(["enquiryId", "createdAt"])
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table "mail_job" alter column "learnerId" drop not null`.execute(db);
    return;
  }
  // SQLite changes a column's constraint only by building the table again (nothing refers to it).
  await sql`create table "mail_job_new" (
    "key" text primary key,
    "kind" text not null,
    "learnerId" text references "user" ("id") on delete cascade,
    "refId" text,
    "windowStart" text,
    "windowEnd" text,
    "status" text not null check (status in ('pending', 'sent', 'failed', 'skipped')),
    "attempts" integer not null,
    "nextAttemptAt" bigint not null,
    "lockedUntil" bigint,
    "lastError" text,
    "createdAt" text not null,
    "finishedAt" text
  )`.execute(db);
  await sql`insert into "mail_job_new" select "key", "kind", "learnerId", "refId", "windowStart", "windowEnd",
    "status", "attempts", "nextAttemptAt", "lockedUntil", "lastError", "createdAt", "finishedAt" from "mail_job"`.execute(
    db,
  );
  await sql`drop table "mail_job"`.execute(db);
  await sql`alter table "mail_job_new" rename to "mail_job"`.execute(db);
  await db.schema
    .createIndex("mail_job_due_idx")
    .on("mail_job")
    .columns(["nextAttemptAt"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
  await db.schema
    .createIndex("mail_job_finished_idx")
    .on("mail_job")
    .columns(["finishedAt"])
    .where(sql.ref("finishedAt"), "is not", null)
    .execute();
  await db.schema.createIndex("mail_job_learner_idx").on("mail_job").columns(["learnerId"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db
    .deleteFrom("mail_job" as never)
    .where(sql.ref("learnerId"), "is", null)
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table "mail_job" alter column "learnerId" set not null`.execute(db);
  }
  await db.schema.dropTable("enquiry_event").ifExists().execute();
  await db.schema.dropTable("enquiry").ifExists().execute();
}
