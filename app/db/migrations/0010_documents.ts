import { sql, type Kysely } from "kysely";

/**
 * Verifiable documents: certificates and offer letters issued as PDFs, each with a unique code
 * printed on it. They sit beside the certificate messages and the offer letter text, which stay
 * as they are. Dates of the document itself ('YYYY-MM-DD') are calendar dates in INSTITUTE_TZ;
 * every other time is ISO-8601 text. Money is integer paise (bigint). A certificate issued to many
 * learners at once is a job (document_job) worked through in batches, so a restart resumes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("document")
    .addColumn("id", "text", (c) => c.primaryKey())
    // UPS-XXXX-XXXX-XXXX-XXXX, 80 random bits; never reused.
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('certificate', 'offer-letter')`))
    // Null once the holder has erased their account: issued documents are kept (revoked).
    .addColumn("learnerId", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("holderName", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("issuedOn", "text", (c) => c.notNull())
    .addColumn("validUntil", "text")
    .addColumn("hours", "integer")
    .addColumn("startDate", "text")
    .addColumn("location", "text")
    .addColumn("payKind", "text", (c) => c.check(sql`"payKind" in ('stipend', 'ctc')`))
    .addColumn("payAmountPaise", "bigint")
    .addColumn("payPeriod", "text", (c) => c.check(sql`"payPeriod" in ('month', 'year')`))
    .addColumn("replyBy", "text")
    .addColumn("body", "text")
    .addColumn("response", "text", (c) => c.check(sql`response in ('accepted', 'declined')`))
    .addColumn("respondedAt", "text")
    .addColumn("issuerName", "text", (c) => c.notNull())
    .addColumn("issuerUrl", "text", (c) => c.notNull())
    .addColumn("signatoryName", "text")
    .addColumn("signatoryTitle", "text")
    .addColumn("storageKey", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("jws", "text")
    // Position in the revocation status list; allocated as max + 1 while issuing.
    .addColumn("statusIndex", "integer", (c) => c.notNull().unique())
    // Who issued it; null once that account is deleted, the document stays.
    .addColumn("issuedBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addColumn("reissuedAt", "text")
    .addColumn("revokedAt", "text")
    .addColumn("revokeReason", "text")
    .addColumn("revokedBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("readAt", "text")
    .execute();
  // A learner's documents of one kind, newest first (the popups, the staff's learner page).
  await db.schema
    .createIndex("document_learner_kind_created_idx")
    .on("document")
    .columns(["learnerId", "kind", "createdAt"])
    .execute();

  await db.schema
    .createTable("document_job")
    .addColumn("id", "text", (c) => c.primaryKey())
    // The certificate's fields (title, description, dates, hours) as JSON.
    .addColumn("fields", "text", (c) => c.notNull())
    // Either the ticked learners' ids (JSON) or the search and course that match them.
    .addColumn("learnerIds", "text")
    .addColumn("search", "text")
    .addColumn("course", "text")
    // Learners who signed up after the job was made are not in it.
    .addColumn("cutoff", "text", (c) => c.notNull())
    // The last learner id done: learners are worked through in id order.
    .addColumn("cursor", "text")
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("issued", "integer", (c) => c.notNull())
    .addColumn("createdBy", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("finishedAt", "text")
    // An instance working on the job holds it until then, renewing it every batch.
    .addColumn("lockedUntil", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("document_job").ifExists().execute();
  await db.schema.dropTable("document").ifExists().execute();
}
