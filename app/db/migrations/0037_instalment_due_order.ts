import type { Kysely } from "kysely";

/**
 * Instalments in due-date order with their id as the tie-break: the receivables report and its
 * CSV read them in that order a page at a time, each page starting after the last one's
 * (dueDate, id). With the due date alone indexed, every page sorted all the instalments sharing
 * a due date, however many. The new index starts with the due date, so it serves every query
 * the old one did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("instalment_due_order_idx").on("instalment").columns(["dueDate", "id"]).execute();
  await db.schema.dropIndex("instalment_due_idx").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("instalment_due_idx").on("instalment").column("dueDate").execute();
  await db.schema.dropIndex("instalment_due_order_idx").execute();
}
