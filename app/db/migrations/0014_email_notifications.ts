import { sql, type Kysely } from "kysely";

/**
 * Email notifications: each learner's choice per kind, and the queue of emails to send.
 *
 * The queue is a table so that a restart loses nothing and every instance can deliver: a job
 * is claimed by moving `lockedUntil` forward, so a crashed instance's claim lapses and another
 * takes it. A job's key names what it is about ("message:<id>", "digest:<learner>:<day>"), so
 * the same email can't be queued twice. Jobs hold references, not rendered mail: a bulk send to
 * 100,000 learners queues 100,000 small rows, and each email is written when it is sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const mode = (column: string) => sql.raw(`"${column}" in ('immediate', 'digest', 'off')`);
  await db.schema
    .createTable("email_preference")
    .addColumn("learnerId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("notice", "text", (c) => c.notNull().defaultTo("immediate").check(mode("notice")))
    .addColumn("task", "text", (c) => c.notNull().defaultTo("immediate").check(mode("task")))
    .addColumn("certificate", "text", (c) => c.notNull().defaultTo("immediate").check(mode("certificate")))
    .addColumn("document", "text", (c) => c.notNull().defaultTo("immediate").check(mode("document")))
    // The next digest lists what arrived after this (ISO-8601); null when no kind is on the digest.
    .addColumn("digestFrom", "text")
    // The institute's calendar day of the last digest (YYYY-MM-DD): one a day.
    .addColumn("digestSentOn", "text")
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  // Learners with a digest to make (the digest round's scan).
  await db.schema
    .createIndex("email_preference_digest_idx")
    .on("email_preference")
    .columns(["digestSentOn", "learnerId"])
    .where(sql.ref("digestFrom"), "is not", null)
    .execute();

  await db.schema
    .createTable("mail_job")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    // The message or document the email is about.
    .addColumn("refId", "text")
    // A digest's window: what arrived after windowStart, up to windowEnd (ISO-8601).
    .addColumn("windowStart", "text")
    .addColumn("windowEnd", "text")
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sent', 'failed', 'skipped')`))
    .addColumn("attempts", "integer", (c) => c.notNull())
    // Milliseconds since the epoch.
    .addColumn("nextAttemptAt", "bigint", (c) => c.notNull())
    .addColumn("lockedUntil", "bigint")
    .addColumn("lastError", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("finishedAt", "text")
    .execute();
  // The worker's claim: due pending jobs, oldest first.
  await db.schema
    .createIndex("mail_job_due_idx")
    .on("mail_job")
    .columns(["nextAttemptAt"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
  // The purge of finished jobs.
  await db.schema
    .createIndex("mail_job_finished_idx")
    .on("mail_job")
    .columns(["finishedAt"])
    .where(sql.ref("finishedAt"), "is not", null)
    .execute();
  // Erasing a learner's jobs with their account (the foreign key), and staff looking them up.
  await db.schema.createIndex("mail_job_learner_idx").on("mail_job").columns(["learnerId"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mail_job").ifExists().execute();
  await db.schema.dropTable("email_preference").ifExists().execute();
}
