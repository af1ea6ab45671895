import { randomUUID } from "node:crypto";
import { personName } from "~/accounts/person-name";
import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
import { staffTopic, userTopic } from "~/realtime/events";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import { isLearner } from "~/staff/search.server";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import type { UploadStorage } from "~/uploads/storage.server";
import type { z } from "zod";
import { decideFees, formatRupees, instalmentState, type FeeTerms, type InstalmentState } from "./fees";
import {
  placementMessages as messages,
  type acceptAgreementSchema,
  type addApplicationSchema,
  type addReferralSchema,
  type createBatchSchema,
  type createTermsSchema,
  type enrolSchema,
  type moveApplicationSchema,
  type offerSchema,
  type pauseSchema,
  type paymentSchema,
  type rejectOfferSchema,
  type setGraduationSchema,
  type setSeekingSchema,
  type verifyOfferSchema,
  type waiveSchema,
} from "./placement-fields";
import { agreementText, consentText } from "./agreement-text";
import { acceptedStages, stageNames, stagesNeedingOffer, type ApplicationStage } from "./stages";

export interface PlacementDeps {
  db: Db;
  bus: EventBus;
}

/** Who did it, as the records keep it: learners by their own name, staff by the audit's. */
export type Changer = { kind: "staff"; actor: Actor } | { kind: "learner"; learnerId: string; name: string };

const now = () => new Date().toISOString();
const paise = (value: number | string | null): number => (value === null ? 0 : Number(value));
const changerName = (changer: Changer) => (changer.kind === "staff" ? changer.actor.name : changer.name);

type Result<T = object> = ActionResult<T>;
const fail = (status: 400 | 403 | 404 | 409, message: string): Result<never> => ({ ok: false, status, message });

async function learnerRow(db: Db, learnerId: string) {
  if (!learnerId) return undefined;
  return db
    .selectFrom("user")
    .select(["id", "username", "name", "email"])
    .where("id", "=", learnerId)
    .where(isLearner)
    .executeTakeFirst();
}

/** Tells the learner's tabs and every staff page that placement records changed. */
async function announce(bus: EventBus, learnerId: string): Promise<void> {
  await bus.publishMany([
    [userTopic(learnerId), { type: "placement" }],
    [staffTopic, { type: "placement", learnerId }],
  ]);
}

// ---- Terms and batches (staff pages) -------------------------------------------------------

export function termsOf(row: {
  ctcThresholdPaise: number | string;
  feeKind: "fixed" | "percent";
  feeAmountPaise: number | string | null;
  feeBasisPoints: number | null;
  capPaise: number | string | null;
  instalments: number;
  placementWindowMonths: number;
  gstBasisPoints: number;
}): FeeTerms {
  return {
    ctcThresholdPaise: paise(row.ctcThresholdPaise),
    fee:
      row.feeKind === "fixed"
        ? { kind: "fixed", amountPaise: paise(row.feeAmountPaise) }
        : { kind: "percent", basisPoints: row.feeBasisPoints ?? 0 },
    capPaise: row.capPaise === null ? null : paise(row.capPaise),
    instalments: row.instalments,
    placementWindowMonths: row.placementWindowMonths,
    gstBasisPoints: row.gstBasisPoints,
  };
}

export async function defineTerms(
  deps: PlacementDeps,
  actor: Actor,
  input: z.infer<typeof createTermsSchema>,
): Promise<Result> {
  await inTransaction(deps, async (trx) => {
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
    await recordAudit(trx, actor, { action: "define-terms", detail: input.name, targetId: null, target: "", count: 1 });
  });
  return { ok: true, message: messages.termsCreated(input.name) };
}

export async function createBatch(
  deps: PlacementDeps,
  actor: Actor,
  input: z.infer<typeof createBatchSchema>,
): Promise<Result> {
  const termsId = input.payment === "pap" ? input.termsId : null;
  if (termsId) {
    const terms = await deps.db.selectFrom("fee_terms").select("id").where("id", "=", termsId).executeTakeFirst();
    if (!terms) return fail(404, messages.unknownTerms);
  }
  const taken = await deps.db.selectFrom("batch").select("id").where("name", "=", input.name).executeTakeFirst();
  if (taken) return fail(409, messages.batchNameTaken);
  await inTransaction(deps, async (trx, bus) => {
    await trx
      .insertInto("batch")
      .values({
        id: randomUUID(),
        name: input.name,
        course: input.course,
        startDate: input.startDate,
        endDate: input.endDate,
        payment: input.payment,
        termsId,
        createdAt: now(),
      })
      .execute();
    await recordAudit(trx, actor, {
      action: "create-batch",
      detail: input.course,
      targetId: null,
      target: input.name,
      count: 1,
    });
    await bus.publish(staffTopic, { type: "placement" });
  });
  return { ok: true, message: messages.batchCreated(input.name) };
}

/** Enrols a learner; in a PAP batch, their agreement is drawn up from the batch's terms. */
export async function enrolLearner(
  deps: PlacementDeps,
  actor: Actor,
  input: z.infer<typeof enrolSchema>,
): Promise<Result> {
  const learner = await learnerRow(deps.db, input.learnerId);
  if (!learner) return fail(404, messages.notALearner);
  const batch = await deps.db
    .selectFrom("batch")
    .select(["id", "name", "payment", "endDate", "termsId"])
    .where("id", "=", input.batchId)
    .executeTakeFirst();
  if (!batch) return fail(404, messages.unknownBatch);
  const terms = batch.termsId
    ? await deps.db.selectFrom("fee_terms").selectAll().where("id", "=", batch.termsId).executeTakeFirst()
    : undefined;
  const already = await deps.db
    .selectFrom("enrolment")
    .select("id")
    .where("batchId", "=", input.batchId)
    .where("learnerId", "=", learner.id)
    .executeTakeFirst();
  if (already) return fail(409, messages.alreadyEnrolled);
  const name = personName(learner);
  await inTransaction(deps, async (trx, bus) => {
    const enrolmentId = randomUUID();
    const at = now();
    await trx
      .insertInto("enrolment")
      .values({
        id: enrolmentId,
        batchId: batch.id,
        learnerId: learner.id,
        seeking: input.seeking ? 1 : 0,
        graduation: "in-progress",
        seekingAtGraduation: null,
        createdAt: at,
      })
      .execute();
    await trx
      .insertInto("enrolment_change")
      .values({
        id: randomUUID(),
        enrolmentId,
        field: "seeking",
        value: input.seeking ? "yes" : "no",
        changedByName: actor.name,
        changedAt: at,
      })
      .execute();
    if (batch.payment === "pap" && terms) {
      const agreed = termsOf(terms);
      await trx
        .insertInto("agreement")
        .values({
          enrolmentId,
          termsId: terms.id,
          terms: JSON.stringify(agreed),
          termsText: agreementText(agreed, terms.pauseRule, { name: batch.name, endDate: batch.endDate }),
          acceptedAt: null,
          decision: null,
          decisionText: null,
          offerId: null,
          createdAt: at,
        })
        .execute();
    }
    await recordAudit(trx, actor, {
      action: "enrol",
      detail: batch.name,
      targetId: learner.id,
      target: name,
      count: 1,
    });
    await announce(bus, learner.id);
  });
  return { ok: true, message: messages.enrolled(name, batch.name) };
}

// ---- Enrolment changes ---------------------------------------------------------------------

async function enrolmentOf(db: Db, enrolmentId: string) {
  if (!enrolmentId) return undefined;
  return db
    .selectFrom("enrolment")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .select([
      "enrolment.id",
      "enrolment.learnerId",
      "enrolment.seeking",
      "enrolment.graduation",
      "user.username",
      "user.name",
      "user.email",
    ])
    .where("enrolment.id", "=", enrolmentId)
    .executeTakeFirst();
}

/** 'Seeking a job', while the learner is still studying (staff, or the learner for themselves). */
export async function setSeeking(
  deps: PlacementDeps,
  changer: Changer,
  input: z.infer<typeof setSeekingSchema>,
): Promise<Result> {
  const enrolment = await enrolmentOf(deps.db, input.enrolmentId);
  if (!enrolment || (changer.kind === "learner" && enrolment.learnerId !== changer.learnerId)) {
    return fail(404, messages.unknownEnrolment);
  }
  if (enrolment.graduation !== "in-progress") return fail(409, messages.seekingFrozen);
  if (Boolean(enrolment.seeking) === input.seeking) return { ok: true, message: messages.saved };
  await inTransaction(deps, async (trx, bus) => {
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
    if (changer.kind === "staff") {
      await recordAudit(trx, changer.actor, {
        action: "set-seeking",
        detail: input.seeking ? "yes" : "no",
        targetId: enrolment.learnerId,
        target: personName(enrolment),
        count: 1,
      });
    }
    await announce(bus, enrolment.learnerId);
  });
  return { ok: true, message: messages.saved };
}

/** Graduated, dropped out or back in progress; graduating freezes 'seeking a job' for the reports. */
export async function setGraduation(
  deps: PlacementDeps,
  actor: Actor,
  input: z.infer<typeof setGraduationSchema>,
): Promise<Result> {
  const enrolment = await enrolmentOf(deps.db, input.enrolmentId);
  if (!enrolment) return fail(404, messages.unknownEnrolment);
  if (enrolment.graduation === input.graduation) return { ok: true, message: messages.saved };
  await inTransaction(deps, async (trx, bus) => {
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
    await recordAudit(trx, actor, {
      action: "set-graduation",
      detail: input.graduation,
      targetId: enrolment.learnerId,
      target: personName(enrolment),
      count: 1,
    });
    await announce(bus, enrolment.learnerId);
  });
  return { ok: true, message: messages.saved };
}

/** The learner accepts their agreement: the time is kept with the exact text they saw. */
export async function acceptAgreement(
  deps: PlacementDeps,
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
  await inTransaction(deps, async (trx, bus) => {
    await trx
      .updateTable("agreement")
      .set({ acceptedAt: now() })
      .where("enrolmentId", "=", agreement.enrolmentId)
      .where("acceptedAt", "is", null)
      .execute();
    await settleFees(trx, learnerId);
    await announce(bus, learnerId);
  });
  return { ok: true, message: messages.agreementAccepted };
}

// ---- Applications and offers ---------------------------------------------------------------

export async function addApplication(
  deps: PlacementDeps,
  changer: Changer,
  learnerId: string,
  input: z.infer<typeof addApplicationSchema>,
): Promise<Result> {
  const learner = await learnerRow(deps.db, learnerId);
  if (!learner) return fail(404, messages.notALearner);
  await inTransaction(deps, async (trx, bus) => {
    const id = randomUUID();
    const at = now();
    await trx
      .insertInto("job_application")
      .values({
        id,
        learnerId,
        company: input.company,
        role: input.role,
        source: input.source,
        stage: "applied",
        interviewRound: 0,
        createdByName: changerName(changer),
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await trx
      .insertInto("application_stage")
      .values({
        id: randomUUID(),
        applicationId: id,
        stage: "applied",
        interviewRound: 0,
        changedByName: changerName(changer),
        changedAt: at,
      })
      .execute();
    if (changer.kind === "staff") {
      await recordAudit(trx, changer.actor, {
        action: "add-referral",
        detail: `${input.company}: ${input.role}`,
        targetId: learnerId,
        target: personName(learner),
        count: 1,
      });
    }
    await announce(bus, learnerId);
  });
  return { ok: true, message: messages.applicationAdded };
}

export function addReferral(deps: PlacementDeps, actor: Actor, input: z.infer<typeof addReferralSchema>) {
  return addApplication(deps, { kind: "staff", actor }, input.learnerId, { ...input, source: "referral" });
}

async function applicationOf(db: Db, applicationId: string) {
  if (!applicationId) return undefined;
  return db
    .selectFrom("job_application")
    .innerJoin("user", "user.id", "job_application.learnerId")
    .leftJoin("job_offer", "job_offer.applicationId", "job_application.id")
    .select([
      "job_application.id",
      "job_application.learnerId",
      "job_application.stage",
      "job_application.interviewRound",
      "job_application.company",
      "job_offer.status as offerStatus",
      "job_offer.storageKey as offerStorageKey",
      "user.username",
      "user.name",
      "user.email",
    ])
    .where("job_application.id", "=", applicationId)
    .executeTakeFirst();
}

/** Moves an application to a stage; 'Interview' again is the next round. */
export async function moveApplication(
  deps: PlacementDeps,
  changer: Changer,
  input: z.infer<typeof moveApplicationSchema>,
): Promise<Result> {
  const application = await applicationOf(deps.db, input.applicationId);
  if (!application || (changer.kind === "learner" && application.learnerId !== changer.learnerId)) {
    return fail(404, messages.unknownApplication);
  }
  const stage: ApplicationStage = input.stage;
  if (stagesNeedingOffer.includes(stage) && !application.offerStatus) return fail(409, messages.needsOffer);
  // Each move to Interview is the next round; other stages keep the count.
  const round = stage === "interview" ? application.interviewRound + 1 : application.interviewRound;
  if (stage === application.stage && stage !== "interview")
    return { ok: true, message: messages.moved(stageNames[stage]) };
  await inTransaction(deps, async (trx, bus) => {
    const at = now();
    await trx
      .updateTable("job_application")
      .set({ stage, interviewRound: round, updatedAt: at })
      .where("id", "=", application.id)
      .execute();
    await trx
      .insertInto("application_stage")
      .values({
        id: randomUUID(),
        applicationId: application.id,
        stage,
        interviewRound: round,
        changedByName: changerName(changer),
        changedAt: at,
      })
      .execute();
    if (changer.kind === "staff") {
      await recordAudit(trx, changer.actor, {
        action: "move-application",
        detail: `${application.company}: ${stageNames[stage]}`,
        targetId: application.learnerId,
        target: personName(application),
        count: 1,
      });
    }
    await settleFees(trx, application.learnerId);
    await announce(bus, application.learnerId);
  });
  return { ok: true, message: messages.moved(stage === "interview" ? `interview round ${round}` : stageNames[stage]) };
}

/**
 * The learner records (or corrects, until it is verified) the offer for one of their
 * applications, with the offer letter already stored under `storageKey`. Returns the key it
 * replaced, for the caller to delete once this has committed.
 */
export async function recordOffer(
  deps: PlacementDeps,
  learner: { id: string; name: string },
  input: z.infer<typeof offerSchema>,
  file: { storageKey: string; fileName: string },
): Promise<Result<{ replacedKey: string | null }>> {
  const application = await applicationOf(deps.db, input.applicationId);
  if (!application || application.learnerId !== learner.id) return fail(404, messages.unknownApplication);
  if (application.offerStatus === "verified") return fail(409, messages.offerVerified);
  const at = now();
  const fields = {
    fixedCtcPaise: input.fixedCtc,
    variableCtcPaise: input.variableCtc,
    location: input.location,
    offerDate: input.offerDate,
    joiningDate: input.joiningDate,
    storageKey: file.storageKey,
    fileName: file.fileName,
    status: "pending" as const,
    reviewedByName: null,
    reviewedAt: null,
    rejectReason: null,
  };
  await inTransaction(deps, async (trx, bus) => {
    if (application.offerStatus) {
      await trx.updateTable("job_offer").set(fields).where("applicationId", "=", application.id).execute();
    } else {
      await trx
        .insertInto("job_offer")
        .values({ ...fields, applicationId: application.id, learnerId: learner.id, createdAt: at })
        .execute();
    }
    if (application.stage !== "offered" && !acceptedStages.includes(application.stage)) {
      await trx
        .updateTable("job_application")
        .set({ stage: "offered", updatedAt: at })
        .where("id", "=", application.id)
        .execute();
      await trx
        .insertInto("application_stage")
        .values({
          id: randomUUID(),
          applicationId: application.id,
          stage: "offered",
          interviewRound: application.interviewRound,
          changedByName: learner.name,
          changedAt: at,
        })
        .execute();
    }
    await announce(bus, learner.id);
  });
  return { ok: true, message: messages.offerRecorded, replacedKey: application.offerStorageKey ?? null };
}

async function reviewOffer(
  deps: PlacementDeps,
  actor: Actor,
  applicationId: string,
  verdict: { status: "verified" } | { status: "rejected"; reason: string },
): Promise<Result> {
  const application = await applicationOf(deps.db, applicationId);
  if (!application || !application.offerStatus) return fail(404, messages.unknownApplication);
  if (application.offerStatus !== "pending") return fail(409, messages.offerNotPending);
  await inTransaction(deps, async (trx, bus) => {
    const changed = await trx
      .updateTable("job_offer")
      .set({
        status: verdict.status,
        reviewedByName: actor.name,
        reviewedAt: now(),
        rejectReason: verdict.status === "rejected" ? verdict.reason : null,
      })
      .where("applicationId", "=", application.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) return;
    await recordAudit(trx, actor, {
      action: verdict.status === "verified" ? "verify-offer" : "reject-offer",
      detail: verdict.status === "rejected" ? `${application.company}: ${verdict.reason}` : application.company,
      targetId: application.learnerId,
      target: personName(application),
      count: 1,
    });
    await settleFees(trx, application.learnerId);
    await announce(bus, application.learnerId);
  });
  return { ok: true, message: verdict.status === "verified" ? messages.offerVerifiedDone : messages.offerRejected };
}

export function verifyOffer(deps: PlacementDeps, actor: Actor, input: z.infer<typeof verifyOfferSchema>) {
  return reviewOffer(deps, actor, input.applicationId, { status: "verified" });
}

export function rejectOffer(deps: PlacementDeps, actor: Actor, input: z.infer<typeof rejectOfferSchema>) {
  return reviewOffer(deps, actor, input.applicationId, { status: "rejected", reason: input.reason });
}

/**
 * Weighs the learner's first verified, accepted offer against each accepted PAP agreement not
 * yet decided: the schedule is written (or why nothing is owed), once. Runs inside the
 * transaction of whatever change could make it due: a verification, a stage move, an acceptance.
 */
export async function settleFees(trx: Db, learnerId: string): Promise<void> {
  const open = await trx
    .selectFrom("agreement")
    .innerJoin("enrolment", "enrolment.id", "agreement.enrolmentId")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .select(["agreement.enrolmentId", "agreement.terms", "batch.endDate"])
    .where("enrolment.learnerId", "=", learnerId)
    .where("agreement.acceptedAt", "is not", null)
    .where("agreement.decision", "is", null)
    .execute();
  if (open.length === 0) return;
  const offer = await trx
    .selectFrom("job_offer")
    .innerJoin("job_application", "job_application.id", "job_offer.applicationId")
    .select(["job_offer.applicationId", "job_offer.fixedCtcPaise", "job_offer.joiningDate"])
    .where("job_offer.learnerId", "=", learnerId)
    .where("job_offer.status", "=", "verified")
    .where("job_application.stage", "in", [...acceptedStages])
    .orderBy("job_offer.joiningDate")
    .orderBy("job_offer.applicationId")
    .executeTakeFirst();
  if (!offer) return;
  for (const agreement of open) {
    const terms = JSON.parse(agreement.terms) as FeeTerms;
    const decision = decideFees(
      terms,
      { fixedCtcPaise: paise(offer.fixedCtcPaise), joiningDate: offer.joiningDate },
      agreement.endDate,
    );
    await trx
      .updateTable("agreement")
      .set({
        decision: decision.owed ? "owed" : decision.reason,
        decisionText: decision.owed
          ? `${formatRupees(decision.totalPaise)} is owed (${formatRupees(decision.feePaise)} fee and ${formatRupees(decision.gstPaise)} GST), in ${decision.instalments.length} ${decision.instalments.length === 1 ? "instalment" : "instalments"}.`
          : decision.explanation,
        offerId: offer.applicationId,
      })
      .where("enrolmentId", "=", agreement.enrolmentId)
      .execute();
    if (!decision.owed) continue;
    await trx
      .insertInto("instalment")
      .values(
        decision.instalments.map((instalment) => ({
          id: randomUUID(),
          enrolmentId: agreement.enrolmentId,
          number: instalment.number,
          dueDate: instalment.dueDate,
          feePaise: instalment.feePaise,
          gstPaise: instalment.gstPaise,
          totalPaise: instalment.totalPaise,
          waivedAt: null,
          waivedByName: null,
          waiverReason: null,
        })),
      )
      .execute();
  }
}

// ---- Fees: payments, pauses, waivers --------------------------------------------------------

async function instalmentOf(db: Db, instalmentId: string) {
  if (!instalmentId) return undefined;
  const row = await db
    .selectFrom("instalment")
    .innerJoin("enrolment", "enrolment.id", "instalment.enrolmentId")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .select([
      "instalment.id",
      "instalment.enrolmentId",
      "instalment.number",
      "instalment.totalPaise",
      "instalment.waivedAt",
      "enrolment.learnerId",
      "user.username",
      "user.name",
      "user.email",
    ])
    .where("instalment.id", "=", instalmentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const paid = await db
    .selectFrom("payment")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amountPaise"), eb.lit(0)).as("paid"))
    .where("instalmentId", "=", instalmentId)
    .executeTakeFirstOrThrow();
  return { ...row, totalPaise: paise(row.totalPaise), paidPaise: paise(paid.paid) };
}

export async function recordPayment(
  deps: PlacementDeps,
  actor: Actor,
  input: z.infer<typeof paymentSchema>,
): Promise<Result> {
  const instalment = await instalmentOf(deps.db, input.instalmentId);
  if (!instalment) return fail(404, messages.unknownInstalment);
  if (input.amount <= 0) return fail(400, messages.noAmount);
  const left = instalment.totalPaise - instalment.paidPaise;
  if (instalment.waivedAt || left <= 0) return fail(409, messages.instalmentClosed);
  if (input.amount > left) return fail(400, messages.overpaid(formatRupees(left)));
  await inTransaction(deps, async (trx, bus) => {
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
    await recordAudit(trx, actor, {
      action: "record-payment",
      detail: `${formatRupees(input.amount)} for instalment ${instalment.number} (${input.reference})`,
      targetId: instalment.learnerId,
      target: personName(instalment),
      count: 1,
    });
    await announce(bus, instalment.learnerId);
  });
  return { ok: true, message: messages.paymentRecorded };
}

export async function pauseFees(
  deps: PlacementDeps,
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
  await inTransaction(deps, async (trx, bus) => {
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
    await recordAudit(trx, actor, {
      action: "pause-fees",
      detail: `until ${input.until}: ${input.reason}`,
      targetId: enrolment.learnerId,
      target: personName(enrolment),
      count: 1,
    });
    await announce(bus, enrolment.learnerId);
  });
  return { ok: true, message: messages.paused };
}

export async function waiveInstalment(
  deps: PlacementDeps,
  actor: Actor,
  input: z.infer<typeof waiveSchema>,
): Promise<Result> {
  const instalment = await instalmentOf(deps.db, input.instalmentId);
  if (!instalment) return fail(404, messages.unknownInstalment);
  if (instalment.waivedAt || instalment.paidPaise >= instalment.totalPaise) return fail(409, messages.instalmentClosed);
  await inTransaction(deps, async (trx, bus) => {
    await trx
      .updateTable("instalment")
      .set({ waivedAt: now(), waivedByName: actor.name, waiverReason: input.reason })
      .where("id", "=", instalment.id)
      .where("waivedAt", "is", null)
      .execute();
    await recordAudit(trx, actor, {
      action: "waive-instalment",
      detail: `instalment ${instalment.number}: ${input.reason}`,
      targetId: instalment.learnerId,
      target: personName(instalment),
      count: 1,
    });
    await announce(bus, instalment.learnerId);
  });
  return { ok: true, message: messages.waived };
}

// ---- Consent --------------------------------------------------------------------------------

export async function setPublicConsent(deps: PlacementDeps, learnerId: string, given: boolean): Promise<Result> {
  await inTransaction(deps, async (trx, bus) => {
    if (given) {
      await trx
        .insertInto("public_consent")
        .values({ learnerId, consentText, givenAt: now() })
        .onConflict((oc) => oc.column("learnerId").doNothing())
        .execute();
    } else {
      await trx.deleteFrom("public_consent").where("learnerId", "=", learnerId).execute();
    }
    await announce(bus, learnerId);
  });
  return { ok: true, message: given ? messages.consentGiven : messages.consentWithdrawn };
}

// ---- Reading one learner's placement ---------------------------------------------------------

/** What the learner's dashboard shows: agreements waiting for their acceptance, and their consent. */
export async function dashboardPlacement(db: Db, learnerId: string) {
  const [awaiting, consent] = await Promise.all([
    db
      .selectFrom("agreement")
      .innerJoin("enrolment", "enrolment.id", "agreement.enrolmentId")
      .innerJoin("batch", "batch.id", "enrolment.batchId")
      .select(["agreement.enrolmentId", "batch.name as batchName", "agreement.termsText"])
      .where("enrolment.learnerId", "=", learnerId)
      .where("agreement.acceptedAt", "is", null)
      .orderBy("batch.startDate", "desc")
      .limit(20)
      .execute(),
    db.selectFrom("public_consent").select("givenAt").where("learnerId", "=", learnerId).executeTakeFirst(),
  ]);
  return {
    awaiting: awaiting.map((a) => ({ enrolmentId: a.enrolmentId, batchName: a.batchName, text: a.termsText })),
    consent: consent ? { givenAt: consent.givenAt } : null,
  };
}

export type DashboardPlacement = Awaited<ReturnType<typeof dashboardPlacement>>;

export interface InstalmentView {
  id: string;
  number: number;
  dueDate: string;
  feePaise: number;
  gstPaise: number;
  totalPaise: number;
  paidPaise: number;
  state: InstalmentState;
  waiver: { by: string; at: string; reason: string } | null;
  payments: { amountPaise: number; paidOn: string; reference: string; recordedBy: string }[];
}

/** Everything about one learner's placement, for their own page and for staff. */
export async function learnerPlacement(db: Db, learnerId: string, today: string) {
  const enrolments = await db
    .selectFrom("enrolment")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .leftJoin("agreement", "agreement.enrolmentId", "enrolment.id")
    .select([
      "enrolment.id",
      "enrolment.seeking",
      "enrolment.graduation",
      "enrolment.seekingAtGraduation",
      "batch.name as batchName",
      "batch.course",
      "batch.startDate",
      "batch.endDate",
      "batch.payment",
      "agreement.termsText",
      "agreement.acceptedAt",
      "agreement.decision",
      "agreement.decisionText",
    ])
    .where("enrolment.learnerId", "=", learnerId)
    .orderBy("batch.startDate", "desc")
    .execute();
  const enrolmentIds = enrolments.map((e) => e.id);
  const [changes, instalments, payments, pauses, applications, stages, consent] = await Promise.all([
    enrolmentIds.length
      ? db
          .selectFrom("enrolment_change")
          .selectAll()
          .where("enrolmentId", "in", enrolmentIds)
          .orderBy("changedAt")
          .execute()
      : [],
    enrolmentIds.length
      ? db.selectFrom("instalment").selectAll().where("enrolmentId", "in", enrolmentIds).orderBy("number").execute()
      : [],
    enrolmentIds.length
      ? db
          .selectFrom("payment")
          .innerJoin("instalment", "instalment.id", "payment.instalmentId")
          .select([
            "payment.instalmentId",
            "payment.amountPaise",
            "payment.paidOn",
            "payment.reference",
            "payment.recordedByName",
          ])
          .where("instalment.enrolmentId", "in", enrolmentIds)
          .orderBy("payment.paidOn")
          .orderBy("payment.recordedAt")
          .execute()
      : [],
    enrolmentIds.length
      ? db.selectFrom("fee_pause").selectAll().where("enrolmentId", "in", enrolmentIds).orderBy("createdAt").execute()
      : [],
    db
      .selectFrom("job_application")
      .leftJoin("job_offer", "job_offer.applicationId", "job_application.id")
      .select([
        "job_application.id",
        "job_application.company",
        "job_application.role",
        "job_application.source",
        "job_application.stage",
        "job_application.interviewRound",
        "job_application.createdByName",
        "job_application.updatedAt",
        "job_offer.fixedCtcPaise",
        "job_offer.variableCtcPaise",
        "job_offer.location",
        "job_offer.offerDate",
        "job_offer.joiningDate",
        "job_offer.fileName",
        "job_offer.status as offerStatus",
        "job_offer.reviewedByName",
        "job_offer.reviewedAt",
        "job_offer.rejectReason",
      ])
      .where("job_application.learnerId", "=", learnerId)
      .orderBy("job_application.updatedAt", "desc")
      .limit(200)
      .execute(),
    db
      .selectFrom("application_stage")
      .innerJoin("job_application", "job_application.id", "application_stage.applicationId")
      .select([
        "application_stage.applicationId",
        "application_stage.stage",
        "application_stage.interviewRound",
        "application_stage.changedByName",
        "application_stage.changedAt",
      ])
      .where("job_application.learnerId", "=", learnerId)
      .orderBy("application_stage.changedAt")
      .limit(2_000)
      .execute(),
    db.selectFrom("public_consent").select(["givenAt"]).where("learnerId", "=", learnerId).executeTakeFirst(),
  ]);

  return {
    enrolments: enrolments.map((e) => {
      const ownPauses = pauses.filter((p) => p.enrolmentId === e.id);
      const activePause = ownPauses.filter((p) => p.until >= today).sort((a, b) => (a.until < b.until ? 1 : -1))[0];
      return {
        id: e.id,
        batchName: e.batchName,
        course: e.course,
        startDate: e.startDate,
        endDate: e.endDate,
        payment: e.payment,
        seeking: Boolean(e.seeking),
        graduation: e.graduation,
        seekingAtGraduation: e.seekingAtGraduation === null ? null : Boolean(e.seekingAtGraduation),
        history: changes
          .filter((c) => c.enrolmentId === e.id)
          .map((c) => ({ field: c.field, value: c.value, by: c.changedByName, at: c.changedAt })),
        agreement:
          e.termsText === null
            ? null
            : { text: e.termsText, acceptedAt: e.acceptedAt, decision: e.decision, decisionText: e.decisionText },
        pauses: ownPauses.map((p) => ({ reason: p.reason, until: p.until, by: p.createdByName, at: p.createdAt })),
        instalments: instalments
          .filter((i) => i.enrolmentId === e.id)
          .map((i): InstalmentView => {
            const own = payments.filter((p) => p.instalmentId === i.id);
            const paidPaise = own.reduce((sum, p) => sum + paise(p.amountPaise), 0);
            const totalPaise = paise(i.totalPaise);
            return {
              id: i.id,
              number: i.number,
              dueDate: i.dueDate,
              feePaise: paise(i.feePaise),
              gstPaise: paise(i.gstPaise),
              totalPaise,
              paidPaise,
              state: instalmentState(
                { dueDate: i.dueDate, totalPaise },
                paidPaise,
                today,
                activePause ?? null,
                i.waivedAt !== null,
              ),
              waiver: i.waivedAt ? { by: i.waivedByName ?? "", at: i.waivedAt, reason: i.waiverReason ?? "" } : null,
              payments: own.map((p) => ({
                amountPaise: paise(p.amountPaise),
                paidOn: p.paidOn,
                reference: p.reference,
                recordedBy: p.recordedByName,
              })),
            };
          }),
      };
    }),
    applications: applications.map((a) => ({
      id: a.id,
      company: a.company,
      role: a.role,
      source: a.source,
      stage: a.stage,
      interviewRound: a.interviewRound,
      addedBy: a.createdByName,
      updatedAt: a.updatedAt,
      offer:
        a.offerStatus === null
          ? null
          : {
              fixedCtcPaise: paise(a.fixedCtcPaise),
              variableCtcPaise: paise(a.variableCtcPaise),
              location: a.location ?? "",
              offerDate: a.offerDate ?? "",
              joiningDate: a.joiningDate ?? "",
              fileName: a.fileName ?? "",
              status: a.offerStatus,
              reviewedBy: a.reviewedByName,
              reviewedAt: a.reviewedAt,
              rejectReason: a.rejectReason,
            },
      history: stages
        .filter((s) => s.applicationId === a.id)
        .map((s) => ({ stage: s.stage, round: s.interviewRound, by: s.changedByName, at: s.changedAt })),
    })),
    consent: consent ? { givenAt: consent.givenAt } : null,
  };
}

export type LearnerPlacement = Awaited<ReturnType<typeof learnerPlacement>>;

/** The offer letter's file, for its owner or staff (the caller checks which). */
export async function offerFile(db: Db, storage: UploadStorage, applicationId: string) {
  if (!applicationId || applicationId.length > 200) return null;
  const offer = await db
    .selectFrom("job_offer")
    .select(["learnerId", "storageKey", "fileName"])
    .where("applicationId", "=", applicationId)
    .executeTakeFirst();
  if (!offer) return null;
  const object = await storage.get(offer.storageKey);
  return object ? { ...object, learnerId: offer.learnerId, fileName: offer.fileName } : null;
}
