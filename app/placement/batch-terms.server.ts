import type { Db } from "~/db/database.server";
import type { Deps } from "~/core/deps";
import type { Actor } from "~/core/people";
import { commitChange, fail, type Result } from "./change.server";
import { placementMessages as messages } from "./placement-fields";

// Which fee terms a batch's new agreements are drawn up from: its own, when it overrides its
// course's, else its course's (`course.termsId`). An agreement keeps a copy of the terms it was
// drawn up from, so a change here reaches only enrolments made after it.

/**
 * A batch with the terms in force for it (`termsId`: its override, `ownTermsId`, else its
 * course's). Undefined for no such batch (or an empty id).
 */
export async function batchWithTermsInForce(db: Db, batchId: string) {
  if (!batchId) return undefined;
  const row = await db
    .selectFrom("batch")
    .leftJoin("course", "course.slug", "batch.courseSlug")
    .select([
      "batch.id",
      "batch.name",
      "batch.payment",
      "batch.endDate",
      "batch.termsId as ownTermsId",
      "course.termsId as courseTermsId",
      "course.title as courseTitle",
    ])
    .where("batch.id", "=", batchId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, termsId: row.ownTermsId ?? row.courseTermsId ?? null };
}

/** The terms row a batch's new agreements use, if it is pay after placement and has terms. */
export async function termsInForce(db: Db, batch: { payment: "pap" | "upfront"; termsId: string | null }) {
  if (batch.payment !== "pap" || !batch.termsId) return undefined;
  return db.selectFrom("fee_terms").selectAll().where("id", "=", batch.termsId).executeTakeFirst();
}

/**
 * An admin gives a batch its own fee terms, or (`termsId` empty) lets it follow its course's.
 * A pay-after-placement batch must be left with terms; an upfront batch has none to set.
 */
export async function setBatchTerms(
  deps: Deps,
  actor: Actor,
  input: { batchId: string; termsId: string },
): Promise<Result> {
  const batch = await batchWithTermsInForce(deps.db, input.batchId);
  if (!batch) return fail(404, messages.unknownBatch);
  if (batch.payment !== "pap") return fail(409, messages.upfrontHasNoTerms);
  const terms = input.termsId
    ? await deps.db.selectFrom("fee_terms").select("name").where("id", "=", input.termsId).executeTakeFirst()
    : undefined;
  if (input.termsId && !terms) return fail(404, messages.unknownTerms);
  if (!input.termsId && !batch.courseTermsId) return fail(409, messages.courseHasNoTerms(batch.courseTitle ?? ""));
  if ((batch.ownTermsId ?? "") === input.termsId) return fail(409, messages.termsUnchanged);
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .updateTable("batch")
        .set({ termsId: input.termsId || null })
        .where("id", "=", batch.id)
        .execute();
    },
    audit: {
      actor,
      action: "batch-terms",
      detail: terms ? `overrides the course's terms with ${terms.name}` : "follows the course's terms",
      targetId: null,
      target: batch.name,
    },
    announce: "staff",
    message: terms ? messages.batchTermsSet(batch.name, terms.name) : messages.batchFollowsCourse(batch.name),
  });
}
