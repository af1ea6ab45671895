import { randomUUID } from "node:crypto";
import type { Actor } from "~/core/people";
import type { Deps } from "~/core/deps";
import type { z } from "zod";
import { commitChange, fail, now, type Result } from "./change.server";
import { placementMessages as messages, type createBatchSchema, type createTermsSchema } from "./placement-fields";

// Fee terms and batches, from the staff pages.

export function defineTerms(deps: Deps, actor: Actor, input: z.infer<typeof createTermsSchema>): Promise<Result> {
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .insertInto("fee_terms")
        .values({
          id: randomUUID(),
          name: input.name,
          ctcThresholdPaise: input.threshold,
          feeKind: input.fee.kind,
          feeAmountPaise: input.fee.kind === "fixed" ? input.fee.amountPaise : null,
          feeBasisPoints: input.fee.kind === "percent" ? input.fee.basisPoints : null,
          capPaise: input.cap,
          instalments: input.instalments,
          placementWindowMonths: input.windowMonths,
          gstBasisPoints: input.gst,
          pauseRule: input.pauseRule,
          createdBy: actor.name,
          createdAt: now(),
        })
        .execute();
    },
    audit: { actor, action: "define-terms", detail: input.name, targetId: null, target: "" },
    announce: "nobody",
    message: messages.termsCreated(input.name),
  });
}

export async function createBatch(deps: Deps, actor: Actor, input: z.infer<typeof createBatchSchema>): Promise<Result> {
  // Empty: the batch follows its course's terms, which a pay-after-placement course must have.
  const termsId = input.payment === "pap" && input.termsId ? input.termsId : null;
  if (termsId) {
    const terms = await deps.db.selectFrom("fee_terms").select("id").where("id", "=", termsId).executeTakeFirst();
    if (!terms) return fail(404, messages.unknownTerms);
  }
  const course = await deps.db
    .selectFrom("course")
    .select(["slug", "title", "termsId"])
    .where("slug", "=", input.courseSlug)
    .executeTakeFirst();
  if (!course) return fail(404, messages.unknownCourse);
  if (input.payment === "pap" && !termsId && !course.termsId) return fail(400, messages.courseHasNoTerms(course.title));
  const taken = await deps.db.selectFrom("batch").select("id").where("name", "=", input.name).executeTakeFirst();
  if (taken) return fail(409, messages.batchNameTaken);
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .insertInto("batch")
        .values({
          id: randomUUID(),
          name: input.name,
          course: course.title,
          courseSlug: course.slug,
          schedule: input.schedule,
          startDate: input.startDate,
          endDate: input.endDate,
          payment: input.payment,
          termsId,
          createdAt: now(),
        })
        .execute();
    },
    audit: {
      actor,
      action: "create-batch",
      detail: termsId ? `${course.title}; its own fee terms` : course.title,
      targetId: null,
      target: input.name,
    },
    announce: "staff",
    message: messages.batchCreated(input.name),
  });
}
