import type { Kysely } from "kysely";

/**
 * Reminders before an assignment's due date. Each learner's assignment records the due date its
 * reminder was made for and when (`reminderDueAt`, `remindedAt`): the mail worker's round marks
 * those due within a day in one update that no other instance can repeat, and the digest lists
 * them by `remindedAt`. A due date that moves no longer matches, so the new one gets its own.
 * The round finds the assignments due soon by `dueAt` alone, hence its index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("learner_assignment").addColumn("reminderDueAt", "text").execute();
  await db.schema.alterTable("learner_assignment").addColumn("remindedAt", "text").execute();
  await db.schema.createIndex("assignment_due_idx").on("assignment").column("dueAt").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("assignment_due_idx").execute();
  await db.schema.alterTable("learner_assignment").dropColumn("remindedAt").execute();
  await db.schema.alterTable("learner_assignment").dropColumn("reminderDueAt").execute();
}
