import { sql, type Kysely } from "kysely";

/**
 * A certificate issued for a batch names it, so a batch's certificate is issued to a learner
 * once: the partial unique index allows one valid (unrevoked) certificate per learner and
 * batch, whatever two staff members or two instances do at the same moment. A revoked one
 * leaves room for a new one. The job that issues them names the batch too, so a second issue
 * waits until the first is done.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("document")
    .addColumn("batchId", "text", (c) => c.references("batch.id").onDelete("set null"))
    .execute();
  await db.schema
    .createIndex("document_batch_learner_idx")
    .on("document")
    .columns(["batchId", "learnerId"])
    .unique()
    .where(sql.ref("batchId"), "is not", null)
    .where(sql.ref("revokedAt"), "is", null)
    .execute();
  await db.schema
    .alterTable("document_job")
    .addColumn("batchId", "text", (c) => c.references("batch.id").onDelete("cascade"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("document_batch_learner_idx").execute();
  await db.schema.alterTable("document_job").dropColumn("batchId").execute();
  await db.schema.alterTable("document").dropColumn("batchId").execute();
}
