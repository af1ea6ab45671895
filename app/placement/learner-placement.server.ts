import type { Db } from "~/db/database.server";
import { compiledOnce } from "~/db/compiled-once.server";
import { instalmentState, type InstalmentState } from "./fees";
import { paise } from "~/core/money";

// Reading one learner's placement: for their dashboard, their own page, staff's view of them and
// their data download.

// Read on every render of the learner's dashboard: compiled once (compiledOnce), not per request.
const awaitingRows = compiledOnce((db: Db, learnerId: string) =>
  db
    .selectFrom("agreement")
    .innerJoin("enrolment", "enrolment.id", "agreement.enrolmentId")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .select(["agreement.enrolmentId", "batch.name as batchName", "agreement.termsText"])
    .where("enrolment.learnerId", "=", learnerId)
    .where("agreement.acceptedAt", "is", null)
    .orderBy("batch.startDate", "desc")
    .limit(20),
);

const consentRows = compiledOnce((db: Db, learnerId: string) =>
  db.selectFrom("public_consent").select("givenAt").where("learnerId", "=", learnerId),
);

/** The learner's consent to be named on the public site, or null. */
async function consentOf(db: Db, learnerId: string): Promise<{ givenAt: string } | null> {
  const [row] = await consentRows(db, learnerId);
  return row ? { givenAt: row.givenAt } : null;
}

/** What the learner's dashboard shows: agreements waiting for their acceptance, and their consent. */
export async function dashboardPlacement(db: Db, learnerId: string) {
  const [awaiting, consent] = await Promise.all([awaitingRows(db, learnerId), consentOf(db, learnerId)]);
  return {
    awaiting: awaiting.map((a) => ({ enrolmentId: a.enrolmentId, batchName: a.batchName, text: a.termsText })),
    consent,
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

/** The learner's enrolments and what is recorded against each: changes, instalments, payments, pauses. */
async function enrolmentRows(db: Db, learnerId: string) {
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
  const [changes, instalments, payments, pauses] = await Promise.all([
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
  ]);
  return { enrolments, changes, instalments, payments, pauses };
}

type EnrolmentRows = Awaited<ReturnType<typeof enrolmentRows>>;

function instalmentViews(
  rows: EnrolmentRows,
  enrolmentId: string,
  today: string,
  activePause: { until: string } | undefined,
): InstalmentView[] {
  return rows.instalments
    .filter((i) => i.enrolmentId === enrolmentId)
    .map((i): InstalmentView => {
      const own = rows.payments.filter((p) => p.instalmentId === i.id);
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
    });
}

async function enrolmentRecords(db: Db, learnerId: string, today: string) {
  const rows = await enrolmentRows(db, learnerId);
  return rows.enrolments.map((e) => {
    const ownPauses = rows.pauses.filter((p) => p.enrolmentId === e.id);
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
      history: rows.changes
        .filter((c) => c.enrolmentId === e.id)
        .map((c) => ({ field: c.field, value: c.value, by: c.changedByName, at: c.changedAt })),
      agreement:
        e.termsText === null
          ? null
          : { text: e.termsText, acceptedAt: e.acceptedAt, decision: e.decision, decisionText: e.decisionText },
      pauses: ownPauses.map((p) => ({ reason: p.reason, until: p.until, by: p.createdByName, at: p.createdAt })),
      instalments: instalmentViews(rows, e.id, today, activePause),
    };
  });
}

async function applicationRecords(db: Db, learnerId: string) {
  const [applications, stages] = await Promise.all([
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
  ]);
  return applications.map((a) => ({
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
  }));
}

/** Everything about one learner's placement, for their own page and for staff. */
export async function learnerPlacement(db: Db, learnerId: string, today: string) {
  const [enrolments, applications, consent] = await Promise.all([
    enrolmentRecords(db, learnerId, today),
    applicationRecords(db, learnerId),
    consentOf(db, learnerId),
  ]);
  return { enrolments, applications, consent };
}

export type LearnerPlacement = Awaited<ReturnType<typeof learnerPlacement>>;
