import { recordAudit } from "~/core/audit.server";
import type { Deps } from "~/core/deps";
import type { Db } from "~/db/database.server";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import { staffTopic } from "~/realtime/events";
import { placementMessages } from "~/placement/placement-fields";
import { batchMessages as messages } from "./batch-rules";

/** The batches this staff member teaches (their views start filtered to them). */
export async function trainedBatchIds(db: Db, staffId: string): Promise<string[]> {
  const rows = await db.selectFrom("batch_trainer").select("batchId").where("staffId", "=", staffId).execute();
  return rows.map((row) => row.batchId);
}

/** Sets a batch's course (from the catalogue), its schedule line and its trainers (staff members). */
export async function editBatch(
  deps: Deps,
  actor: Actor,
  input: { batchId: string; courseSlug: string; schedule: string; trainerIds: string[] },
): Promise<ActionResult> {
  const batch = await deps.db
    .selectFrom("batch")
    .select(["id", "name", "payment", "termsId"])
    .where("id", "=", input.batchId)
    .executeTakeFirst();
  if (!batch) return { ok: false, status: 404, message: messages.noBatch };
  const course = await deps.db
    .selectFrom("course")
    .select(["slug", "title", "termsId"])
    .where("slug", "=", input.courseSlug)
    .executeTakeFirst();
  if (!course) return { ok: false, status: 404, message: messages.noCourse };
  // A pay-after-placement batch that follows its course's terms is never left without terms.
  if (batch.payment === "pap" && !batch.termsId && !course.termsId)
    return { ok: false, status: 409, message: placementMessages.courseHasNoTerms(course.title) };
  if (input.trainerIds.length > 0) {
    const staff = await deps.db
      .selectFrom("user")
      .select("id")
      .where("id", "in", input.trainerIds)
      .where("role", "is not", null)
      .where("role", "!=", "")
      .execute();
    if (staff.length < input.trainerIds.length) return { ok: false, status: 400, message: messages.notStaff };
  }
  await inTransaction(deps, { everyone: true }, async (trx, bus) => {
    const at = new Date().toISOString();
    await trx
      .updateTable("batch")
      .set({ courseSlug: course.slug, course: course.title, schedule: input.schedule })
      .where("id", "=", batch.id)
      .execute();
    await trx.deleteFrom("batch_trainer").where("batchId", "=", batch.id).execute();
    if (input.trainerIds.length > 0) {
      await trx
        .insertInto("batch_trainer")
        .values(input.trainerIds.map((staffId) => ({ batchId: batch.id, staffId, createdAt: at })))
        .execute();
    }
    await recordAudit(trx, actor, {
      action: "edit-batch",
      detail: `${course.title}; ${input.trainerIds.length} ${input.trainerIds.length === 1 ? "trainer" : "trainers"}`,
      targetId: null,
      target: batch.name,
      count: 1,
    });
    await bus.publish(staffTopic, { type: "placement" });
  });
  return { ok: true, message: messages.saved };
}
