import { sql, type Kysely } from "kysely";

/**
 * The review queue at 100 batches, 2,000 learners and 50 assignments a batch
 * (bench/assignments.ts) read every learner's assignment waiting for review, with its learner,
 * assignment and batch, to sort them and show 50: about 12 s. Two partial indexes, each holding
 * only the rows of one list, in the list's order:
 *
 * - waiting for review (submitted or late), oldest hand-in first: the page's keys are the first
 *   entries, and the count reads this index alone; and the same rows by assignment, for a batch
 *   (or a trainer's batches), which reads its assignments' waiting rows only;
 * - not started or sent back for changes, by assignment: the overdue list walks the assignments
 *   past their due date and reads only these rows of each.
 *
 * The queries write the same conditions literally (app/assignments/review-queue.server.ts):
 * neither database matches a bound parameter against an index's condition. The index on
 * (status, submittedAt) they replace goes: it cannot give two statuses' rows in hand-in order,
 * and SQLite, without statistics, preferred it to both (reading every row of a status).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("learner_assignment_waiting_idx")
    .on("learner_assignment")
    .columns(["submittedAt", "learnerId", "assignmentId", "status"])
    .where(sql<boolean>`"status" in ('submitted', 'late')`)
    .execute();
  await db.schema
    .createIndex("learner_assignment_waiting_assignment_idx")
    .on("learner_assignment")
    .columns(["assignmentId", "submittedAt", "learnerId", "status"])
    .where(sql<boolean>`"status" in ('submitted', 'late')`)
    .execute();
  await db.schema
    .createIndex("learner_assignment_open_idx")
    .on("learner_assignment")
    .columns(["assignmentId", "learnerId", "status", "submittedAt"])
    .where(sql<boolean>`"status" in ('not-started', 'changes-requested')`)
    .execute();
  await db.schema.dropIndex("learner_assignment_queue_idx").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("learner_assignment_queue_idx")
    .on("learner_assignment")
    .columns(["status", "submittedAt"])
    .execute();
  await db.schema.dropIndex("learner_assignment_open_idx").execute();
  await db.schema.dropIndex("learner_assignment_waiting_assignment_idx").execute();
  await db.schema.dropIndex("learner_assignment_waiting_idx").execute();
}
