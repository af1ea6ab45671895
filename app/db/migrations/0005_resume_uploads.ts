import type { Kysely } from "kysely";

/**
 * The one unfinished resume upload a learner may have: starting another replaces it, so a
 * learner can't pile up unfinished uploads on the server's disk.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("resume_upload")
    .addColumn("learnerId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("uploadId", "text", (c) => c.notNull().unique())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
}
