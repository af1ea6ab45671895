import type { Kysely } from "kysely";

/**
 * Two reads of the learning loop that scanned a whole table at 100 batches, 2,000 learners and
 * 50 assignments a batch (bench/assignments.ts): the learner home's feedback from trainers (a
 * learner's comments by time; the old index starts with the assignment, so every comment was
 * read: 55 ms, then 0.3 ms), and the review queue's overdue list over every batch (assignments
 * by due date; 650 ms, then 80 ms on SQLite).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("assignment_comment_learner_idx")
    .on("assignment_comment")
    .columns(["learnerId", "createdAt"])
    .execute();
  await db.schema.createIndex("assignment_due_idx").on("assignment").column("dueAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("assignment_due_idx").execute();
  await db.schema.dropIndex("assignment_comment_learner_idx").execute();
}
