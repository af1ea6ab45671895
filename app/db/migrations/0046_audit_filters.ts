import type { Kysely } from "kysely";

/**
 * The audit log filtered by who acted, by action and by learner, each newest first on an index
 * of its own (the log grows without end; the date range reads the `createdAt` index of 0003),
 * and the text a row sent (a notice, task or certificate note, an offer letter, a document's
 * text) as plain text, kept with the row (decision 027).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("staff_audit").addColumn("sentText", "text").execute();
  await db.schema
    .createIndex("staff_audit_actor_idx")
    .on("staff_audit")
    .columns(["actorId", "createdAt", "id"])
    .execute();
  // One person's actions of one kind ("what did this trainer send"): both are common, and
  // either index alone would pass over all of that person's other actions to find none.
  await db.schema
    .createIndex("staff_audit_actor_action_idx")
    .on("staff_audit")
    .columns(["actorId", "action", "createdAt", "id"])
    .execute();
  await db.schema
    .createIndex("staff_audit_action_idx")
    .on("staff_audit")
    .columns(["action", "createdAt", "id"])
    .execute();
  await db.schema
    .createIndex("staff_audit_target_idx")
    .on("staff_audit")
    .columns(["targetId", "createdAt", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    "staff_audit_target_idx",
    "staff_audit_action_idx",
    "staff_audit_actor_action_idx",
    "staff_audit_actor_idx",
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.alterTable("staff_audit").dropColumn("sentText").execute();
}
