import { randomUUID } from "node:crypto";
import { sql, type Selectable } from "kysely";
import type { Db } from "~/db/database.server";
import type { FeeTermsTable } from "~/db/schema";
import { personName } from "~/accounts/person-name";
import type { Actor } from "~/core/people";
import type { Deps } from "~/core/deps";
import type { z } from "zod";
import { agreementText } from "./agreement-text";
import { termsOf } from "./fee-terms";
import { batchWithTermsInForce, termsInForce } from "./batch-terms.server";
import { auditBy, changerName, commitChange, fail, now, type Changer, type Result } from "./change.server";
import { enrolmentOf, learnerRow } from "./lookups.server";
import {
  placementMessages as messages,
  type acceptAgreementSchema,
  type enrolSchema,
  type setGraduationSchema,
  type setSeekingSchema,
} from "./placement-fields";

// A learner's place in a batch: enrolling, 'seeking a job', graduation, and the agreement a
// pay-after-placement batch asks them to accept.

/** Enrols a learner; in a PAP batch, their agreement is drawn up from the terms in force for it. */
export async function enrolLearner(deps: Deps, actor: Actor, input: z.infer<typeof enrolSchema>): Promise<Result> {
  const learner = await learnerRow(deps.db, input.learnerId);
  if (!learner) return fail(404, messages.notALearner);
  const batch = await batchWithTermsInForce(deps.db, input.batchId);
  if (!batch) return fail(404, messages.unknownBatch);
  const terms = await termsInForce(deps.db, batch);
  const already = await deps.db
    .selectFrom("enrolment")
    .select("id")
    .where("batchId", "=", input.batchId)
    .where("learnerId", "=", learner.id)
    .executeTakeFirst();
  if (already) return fail(409, messages.alreadyEnrolled);
  const name = personName(learner);
  return commitChange(deps, {
    write: async (trx) => {
      await writeEnrolment(trx, {
        batch,
        terms,
        learnerId: learner.id,
        seeking: input.seeking,
        by: actor.name,
        at: now(),
      });
    },
    audit: { actor, action: "enrol", detail: batch.name, targetId: learner.id, target: name },
    announce: { learnerId: learner.id },
    message: messages.enrolled(name, batch.name),
  });
}

type BatchForEnrolment = { id: string; name: string; payment: "pap" | "upfront"; endDate: string };

/**
 * A learner's enrolment rows: the enrolment, its first 'seeking a job' record, in a PAP batch the
 * agreement drawn up from the batch's terms, and the batch's assignments so far, not started.
 */
export async function writeEnrolment(
  trx: Db,
  e: {
    batch: BatchForEnrolment;
    terms: Selectable<FeeTermsTable> | undefined;
    learnerId: string;
    seeking: boolean;
    by: string;
    at: string;
  },
): Promise<void> {
  await writeEnrolments(trx, { ...e, learnerIds: [e.learnerId] });
}

/** Rows per statement: within both databases' limits on bound values for these tables. */
const rowsPerInsert = 500;

/**
 * The same rows for many learners at once (a bulk enrolment), a few statements for them all
 * rather than a few for each: on PostgreSQL each statement is a round trip, and the figures'
 * triggers recount once per statement (migration 0048).
 */
export async function writeEnrolments(
  trx: Db,
  e: {
    batch: BatchForEnrolment;
    terms: Selectable<FeeTermsTable> | undefined;
    learnerIds: readonly string[];
    seeking: boolean;
    by: string;
    at: string;
  },
): Promise<void> {
  // The agreement's terms and text depend on the batch alone: drawn up once for everyone.
  const agreed = e.batch.payment === "pap" && e.terms ? termsOf(e.terms) : null;
  const agreement =
    agreed && e.terms
      ? {
          termsId: e.terms.id,
          terms: JSON.stringify(agreed),
          termsText: agreementText(agreed, e.terms.pauseRule, { name: e.batch.name, endDate: e.batch.endDate }),
        }
      : null;
  for (let start = 0; start < e.learnerIds.length; start += rowsPerInsert) {
    const learnerIds = e.learnerIds.slice(start, start + rowsPerInsert);
    const enrolments = learnerIds.map((learnerId) => ({ id: randomUUID(), learnerId }));
    await trx
      .insertInto("enrolment")
      .values(
        enrolments.map(({ id, learnerId }) => ({
          id,
          batchId: e.batch.id,
          learnerId,
          seeking: e.seeking ? 1 : 0,
          graduation: "in-progress" as const,
          seekingAtGraduation: null,
          createdAt: e.at,
        })),
      )
      .execute();
    await trx
      .insertInto("enrolment_change")
      .values(
        enrolments.map(({ id }) => ({
          id: randomUUID(),
          enrolmentId: id,
          field: "seeking",
          value: e.seeking ? "yes" : "no",
          changedByName: e.by,
          changedAt: e.at,
        })),
      )
      .execute();
    if (agreement) {
      await trx
        .insertInto("agreement")
        .values(
          enrolments.map(({ id }) => ({
            enrolmentId: id,
            ...agreement,
            acceptedAt: null,
            decision: null,
            decisionText: null,
            offerId: null,
            createdAt: e.at,
          })),
        )
        .execute();
    }
    await trx
      .insertInto("learner_assignment")
      .columns(["assignmentId", "learnerId", "status", "points", "submittedAt", "reviewedAt", "updatedAt"])
      .expression((eb) =>
        eb
          .selectFrom("assignment")
          .innerJoin("enrolment", "enrolment.batchId", "assignment.batchId")
          .select([
            "assignment.id",
            "enrolment.learnerId",
            sql.lit("not-started").as("status"),
            sql.lit(null).as("points"),
            sql.lit(null).as("submittedAt"),
            sql.lit(null).as("reviewedAt"),
            sql.lit(e.at).as("updatedAt"),
          ])
          .where("assignment.batchId", "=", e.batch.id)
          .where(
            "enrolment.id",
            "in",
            enrolments.map(({ id }) => id),
          ),
      )
      .onConflict((conflict) => conflict.columns(["assignmentId", "learnerId"]).doNothing())
      .execute();
  }
}

/** 'Seeking a job', while the learner is still studying (staff, or the learner for themselves). */
export async function setSeeking(
  deps: Deps,
  changer: Changer,
  input: z.infer<typeof setSeekingSchema>,
): Promise<Result> {
  const enrolment = await enrolmentOf(deps.db, input.enrolmentId);
  if (!enrolment || (changer.kind === "learner" && enrolment.learnerId !== changer.learnerId)) {
    return fail(404, messages.unknownEnrolment);
  }
  if (enrolment.graduation !== "in-progress") return fail(409, messages.seekingFrozen);
  if (Boolean(enrolment.seeking) === input.seeking) return { ok: true, message: messages.saved };
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .updateTable("enrolment")
        .set({ seeking: input.seeking ? 1 : 0 })
        .where("id", "=", enrolment.id)
        .execute();
      await trx
        .insertInto("enrolment_change")
        .values({
          id: randomUUID(),
          enrolmentId: enrolment.id,
          field: "seeking",
          value: input.seeking ? "yes" : "no",
          changedByName: changerName(changer),
          changedAt: now(),
        })
        .execute();
    },
    audit: auditBy(changer, {
      action: "set-seeking",
      detail: input.seeking ? "yes" : "no",
      targetId: enrolment.learnerId,
      target: personName(enrolment),
    }),
    announce: { learnerId: enrolment.learnerId },
    message: messages.saved,
  });
}

/** Graduated, dropped out or back in progress; graduating freezes 'seeking a job' for the reports. */
export async function setGraduation(
  deps: Deps,
  actor: Actor,
  input: z.infer<typeof setGraduationSchema>,
): Promise<Result> {
  const enrolment = await enrolmentOf(deps.db, input.enrolmentId);
  if (!enrolment) return fail(404, messages.unknownEnrolment);
  if (enrolment.graduation === input.graduation) return { ok: true, message: messages.saved };
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .updateTable("enrolment")
        .set({
          graduation: input.graduation,
          seekingAtGraduation: input.graduation === "graduated" ? enrolment.seeking : null,
        })
        .where("id", "=", enrolment.id)
        .execute();
      await trx
        .insertInto("enrolment_change")
        .values({
          id: randomUUID(),
          enrolmentId: enrolment.id,
          field: "graduation",
          value: input.graduation,
          changedByName: actor.name,
          changedAt: now(),
        })
        .execute();
    },
    audit: {
      actor,
      action: "set-graduation",
      detail: input.graduation,
      targetId: enrolment.learnerId,
      target: personName(enrolment),
    },
    announce: { learnerId: enrolment.learnerId },
    message: messages.saved,
  });
}

/** The learner accepts their agreement: the time is kept with the exact text they saw. */
export async function acceptAgreement(
  deps: Deps,
  learnerId: string,
  input: z.infer<typeof acceptAgreementSchema>,
): Promise<Result> {
  const agreement = await deps.db
    .selectFrom("agreement")
    .innerJoin("enrolment", "enrolment.id", "agreement.enrolmentId")
    .select(["agreement.enrolmentId", "agreement.acceptedAt"])
    .where("agreement.enrolmentId", "=", input.enrolmentId)
    .where("enrolment.learnerId", "=", learnerId)
    .executeTakeFirst();
  if (!agreement) return fail(404, messages.unknownEnrolment);
  if (agreement.acceptedAt) return fail(409, messages.alreadyAccepted);
  return commitChange(deps, {
    write: async (trx) => {
      await trx
        .updateTable("agreement")
        .set({ acceptedAt: now() })
        .where("enrolmentId", "=", agreement.enrolmentId)
        .where("acceptedAt", "is", null)
        .execute();
    },
    audit: null,
    settleFeesOf: learnerId,
    announce: { learnerId },
    message: messages.agreementAccepted,
  });
}
