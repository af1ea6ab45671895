import { randomUUID } from "node:crypto";
import { personName } from "~/accounts/person-name";
import type { Actor } from "~/core/people";
import type { Deps } from "~/core/deps";
import type { z } from "zod";
import { commitChange, fail, now, type Result } from "./change.server";
import { formatRupees } from "~/core/money";
import { enrolmentOf, instalmentOf } from "./lookups.server";
import {
  placementMessages as messages,
  type pauseSchema,
  type paymentSchema,
  type waiveSchema,
} from "./placement-fields";

// What staff record against a learner's fee schedule: payments, pauses and waivers.

export async function recordPayment(deps: Deps, actor: Actor, input: z.infer<typeof paymentSchema>): Promise<Result> {
  const instalment = await instalmentOf(deps.db, input.instalmentId);
  if (!instalment) return fail(404, messages.unknownInstalment);
  if (input.amount <= 0) return fail(400, messages.noAmount);
  const left = instalment.totalPaise - instalment.paidPaise;
  if (instalment.waivedAt || left <= 0) return fail(409, messages.instalmentClosed);
  if (input.amount > left) return fail(400, messages.overpaid(formatRupees(left)));
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .insertInto("payment")
        .values({
          id: randomUUID(),
          instalmentId: instalment.id,
          amountPaise: input.amount,
          paidOn: input.paidOn,
          reference: input.reference,
          recordedByName: actor.name,
          recordedAt: now(),
        })
        .execute();
    },
    audit: {
      actor,
      action: "record-payment",
      detail: `${formatRupees(input.amount)} for instalment ${instalment.number} (${input.reference})`,
      targetId: instalment.learnerId,
      target: personName(instalment),
    },
    announce: { learnerId: instalment.learnerId },
    message: messages.paymentRecorded,
  });
}

export async function pauseFees(
  deps: Deps,
  actor: Actor,
  input: z.infer<typeof pauseSchema>,
  today: string,
): Promise<Result> {
  const enrolment = await enrolmentOf(deps.db, input.enrolmentId);
  if (!enrolment) return fail(404, messages.unknownEnrolment);
  const scheduled = await deps.db
    .selectFrom("instalment")
    .select("id")
    .where("enrolmentId", "=", enrolment.id)
    .executeTakeFirst();
  if (!scheduled) return fail(409, messages.noSchedule);
  if (input.until < today) return fail(400, messages.pauseInPast);
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .insertInto("fee_pause")
        .values({
          id: randomUUID(),
          enrolmentId: enrolment.id,
          reason: input.reason,
          until: input.until,
          createdByName: actor.name,
          createdAt: now(),
        })
        .execute();
    },
    audit: {
      actor,
      action: "pause-fees",
      detail: `until ${input.until}: ${input.reason}`,
      targetId: enrolment.learnerId,
      target: personName(enrolment),
    },
    announce: { learnerId: enrolment.learnerId },
    message: messages.paused,
  });
}

export async function waiveInstalment(deps: Deps, actor: Actor, input: z.infer<typeof waiveSchema>): Promise<Result> {
  const instalment = await instalmentOf(deps.db, input.instalmentId);
  if (!instalment) return fail(404, messages.unknownInstalment);
  if (instalment.waivedAt || instalment.paidPaise >= instalment.totalPaise) return fail(409, messages.instalmentClosed);
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .updateTable("instalment")
        .set({ waivedAt: now(), waivedByName: actor.name, waiverReason: input.reason })
        .where("id", "=", instalment.id)
        .where("waivedAt", "is", null)
        .execute();
    },
    audit: {
      actor,
      action: "waive-instalment",
      detail: `instalment ${instalment.number}: ${input.reason}`,
      targetId: instalment.learnerId,
      target: personName(instalment),
    },
    announce: { learnerId: instalment.learnerId },
    message: messages.waived,
  });
}
