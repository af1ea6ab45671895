import type { Insertable } from "kysely";
import type {
  AgreementTable,
  ApplicationStageTable,
  EnrolmentTable,
  FeePauseTable,
  InstalmentTable,
  JobApplicationTable,
  JobOfferTable,
  PaymentTable,
  PublicConsentTable,
} from "~/db/schema";
import { consentText } from "./agreement-text";
import { decideFees } from "./fees";
import type { SeedRandom } from "~/core/seeded-random";
import { addDays, companies, roles, type SeedTemplate } from "./seed-fixtures";
import type { ApplicationStage } from "./stages";

// One seeded learner's placement records: their enrolment, applications, offer and fee schedule.

/** The rows one page of learners adds, inserted together. */
export interface SeedRows {
  enrolments: Insertable<EnrolmentTable>[];
  agreements: Insertable<AgreementTable>[];
  applications: Insertable<JobApplicationTable>[];
  stages: Insertable<ApplicationStageTable>[];
  offers: Insertable<JobOfferTable>[];
  instalments: Insertable<InstalmentTable>[];
  payments: Insertable<PaymentTable>[];
  pauses: Insertable<FeePauseTable>[];
  consents: Insertable<PublicConsentTable>[];
}

export const emptySeedRows = (): SeedRows => ({
  enrolments: [],
  agreements: [],
  applications: [],
  stages: [],
  offers: [],
  instalments: [],
  payments: [],
  pauses: [],
  consents: [],
});

/** What every record of one seeding shares: its random source, its day and its time. */
export interface SeedRun {
  random: SeedRandom;
  today: string;
  at: string;
}

/** A seeded batch, as its learners' records need it. */
export interface SeedBatch {
  id: string;
  endDate: string;
  template: SeedTemplate | null;
  termsText: string;
}

/** One application by the seeded learner, at `stage`, with its history. */
function seedApplication(rows: SeedRows, { random, at }: SeedRun, learnerId: string, stage: ApplicationStage) {
  const id = random.id();
  rows.applications.push({
    id,
    learnerId,
    company: random.pick(companies),
    role: random.pick(roles),
    source: random.next() < 0.4 ? "referral" : "own",
    stage,
    interviewRound: stage === "applied" || stage === "shortlisted" ? 0 : 1 + random.int(3),
    createdByName: "Seed",
    createdAt: at,
    updatedAt: at,
  });
  rows.stages.push({
    id: random.id(),
    applicationId: id,
    stage: "applied",
    interviewRound: 0,
    changedByName: "Seed",
    changedAt: at,
  });
  if (stage !== "applied") {
    rows.stages.push({
      id: random.id(),
      applicationId: id,
      stage,
      interviewRound: 0,
      changedByName: "Seed",
      changedAt: at,
    });
  }
  return id;
}

/** The learner's enrolment in `batch` and, in a PAP batch, their accepted agreement. */
function seedEnrolment(rows: SeedRows, { random, today, at }: SeedRun, learnerId: string, batch: SeedBatch) {
  const ended = batch.endDate < today;
  const seeking = random.next() < 0.85;
  const roll = random.next();
  const graduation = !ended ? "in-progress" : roll < 0.85 ? "graduated" : "dropped-out";
  const enrolmentId = random.id();
  rows.enrolments.push({
    id: enrolmentId,
    batchId: batch.id,
    learnerId,
    seeking: seeking ? 1 : 0,
    graduation,
    seekingAtGraduation: graduation === "graduated" ? (seeking ? 1 : 0) : null,
    createdAt: at,
  });
  if (batch.template) {
    rows.agreements.push({
      enrolmentId,
      termsId: batch.template.id,
      terms: JSON.stringify(batch.template.terms),
      termsText: batch.termsText,
      acceptedAt: at,
      decision: null,
      decisionText: null,
      offerId: null,
      createdAt: at,
    });
  }
  return { enrolmentId, jobSeekingGraduate: graduation === "graduated" && seeking };
}

/**
 * A few applications that went nowhere, then (for most) the one with an offer: verified and
 * accepted when `placed`, else pending or rejected. Null when no offer came (or not yet).
 */
function seedOffer(rows: SeedRows, run: SeedRun, learnerId: string, batch: SeedBatch) {
  const { random, today, at } = run;
  for (let n = random.int(3); n > 0; n--)
    seedApplication(rows, run, learnerId, random.pick(["applied", "shortlisted", "interview", "declined"]));
  const placed = random.next() < 0.6;
  const offerRoll = random.next();
  if (!placed && offerRoll > 0.25) return null;
  const offerDate = addDays(batch.endDate, random.int(170) - 20);
  if (offerDate > today) return null;
  const joiningDate = addDays(offerDate, 15 + random.int(60));
  const fixedCtcPaise = (2_40_000 + random.int(96) * 10_000) * 100;
  const status = placed ? "verified" : offerRoll < 0.1 ? "rejected" : "pending";
  const applicationId = seedApplication(
    rows,
    run,
    learnerId,
    placed ? (joiningDate <= today ? "joined" : "accepted") : "offered",
  );
  rows.offers.push({
    applicationId,
    learnerId,
    fixedCtcPaise,
    variableCtcPaise: random.int(5) * 25_000 * 100,
    location: "Pune",
    offerDate,
    joiningDate,
    storageKey: `offers/seed-${applicationId}.pdf`,
    fileName: "offer-letter.pdf",
    status,
    reviewedByName: status === "pending" ? null : "Seed",
    reviewedAt: status === "pending" ? null : at,
    rejectReason: status === "rejected" ? "The letter's signature could not be checked." : null,
    createdAt: at,
  });
  if (placed && random.next() < 0.2) rows.consents.push({ learnerId, consentText, givenAt: at });
  return { placed, applicationId, fixedCtcPaise, joiningDate };
}

/** The schedule, as settleFees would write it, and what has been paid of it. */
function seedSchedule(
  rows: SeedRows,
  { random, today, at }: SeedRun,
  enrolmentId: string,
  batch: { endDate: string; template: SeedTemplate },
  offer: { applicationId: string; fixedCtcPaise: number; joiningDate: string },
) {
  const { applicationId, fixedCtcPaise, joiningDate } = offer;
  const decision = decideFees(batch.template.terms, { fixedCtcPaise, joiningDate }, batch.endDate);
  const agreement = rows.agreements.at(-1)!;
  agreement.decision = decision.owed ? "owed" : decision.reason;
  agreement.decisionText = decision.owed ? "Owed under the agreement." : decision.explanation;
  agreement.offerId = applicationId;
  if (!decision.owed) return;
  const payer = random.next();
  for (const part of decision.instalments) {
    const instalmentId = random.id();
    const waived = random.next() < 0.02;
    rows.instalments.push({
      id: instalmentId,
      enrolmentId,
      number: part.number,
      dueDate: part.dueDate,
      feePaise: part.feePaise,
      gstPaise: part.gstPaise,
      totalPaise: part.totalPaise,
      waivedAt: waived ? at : null,
      waivedByName: waived ? "Seed" : null,
      waiverReason: waived ? "Hardship" : null,
    });
    if (waived || part.dueDate > today) continue;
    // Most pay on time; some pay part; some stop paying.
    const amount = payer < 0.7 ? part.totalPaise : payer < 0.85 ? Math.floor(part.totalPaise / 2) : 0;
    if (amount === 0) continue;
    rows.payments.push({
      id: random.id(),
      instalmentId,
      amountPaise: amount,
      paidOn: part.dueDate,
      reference: `UTR${random.int(1e9)}`,
      recordedByName: "Seed",
      recordedAt: at,
    });
  }
  if (payer >= 0.95) {
    rows.pauses.push({
      id: random.id(),
      enrolmentId,
      reason: "Lost their job",
      until: addDays(today, 30 + random.int(90)),
      createdByName: "Seed",
      createdAt: at,
    });
  }
}

export function seedLearner(rows: SeedRows, run: SeedRun, learnerId: string, batches: SeedBatch[]) {
  const batch = run.random.pick(batches);
  const { enrolmentId, jobSeekingGraduate } = seedEnrolment(rows, run, learnerId, batch);
  if (!jobSeekingGraduate) return;
  const offer = seedOffer(rows, run, learnerId, batch);
  const template = batch.template;
  if (!offer?.placed || !template) return;
  seedSchedule(rows, run, enrolmentId, { ...batch, template }, offer);
}
