import type { Kysely } from "kysely";

/**
 * Fee terms belong to a course: `course.termsId`, the pay-after-placement terms its batches use
 * unless they name their own. From here on a batch's `termsId` is that override, so every batch
 * that already has terms keeps them as its explicit override, and no course starts with terms:
 * nothing a batch, an enrolment, an agreement or a report shows changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("course")
    .addColumn("termsId", "text", (c) => c.references("fee_terms.id"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("course").dropColumn("termsId").execute();
}
