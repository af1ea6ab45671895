import { sql, type Kysely } from "kysely";

/**
 * A trainer's feedback on a learner's assignment is unread until the learner is shown it (the
 * Tasks popup, where each assignment's conversation is), as notices and tasks are: `readAt`.
 * The learner's own replies are theirs, so read. Feedback from before this was on the home for
 * a week: older feedback starts read, the last week's unread.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("assignment_comment").addColumn("readAt", "text").execute();
  const weekAgo = new Date(Date.now() - 7 * 24 * 3_600_000).toISOString();
  await sql`update "assignment_comment" set "readAt" = "createdAt" where "kind" = 'reply' or "createdAt" < ${weekAgo}`.execute(
    db,
  );
  await db.schema
    .createIndex("assignment_comment_unread_idx")
    .on("assignment_comment")
    .columns(["learnerId", "readAt"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("assignment_comment_unread_idx").execute();
  await db.schema.alterTable("assignment_comment").dropColumn("readAt").execute();
}
