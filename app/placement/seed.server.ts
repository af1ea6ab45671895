import { randomBytes } from "node:crypto";
import type { Insertable } from "kysely";
import { signUpCourses } from "~/content/site-content";
import type { Db } from "~/db/database.server";
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
import { agreementText, consentText } from "./agreement-text";
import { addMonths, decideFees, type FeeTerms } from "./fees";
import type { ApplicationStage } from "./stages";

/*
 * Placement records for demos and benchmarks (npm run seed): batches over the courses, half of
 * them pay-after-placement, a share of the learners enrolled, graduations, applications, offers
 * (most verified and accepted), fee schedules from decideFees and payments. Reproducible with a
 * seed; inserted in multi-row statements, a chunk per transaction.
 */

export interface PlacementSeedOptions {
  /** The share of learners enrolled in a batch (0 to 1). */
  share?: number;
  batches?: number;
  seed?: number;
  now?: Date;
}

export interface PlacementSeedResult {
  batches: number;
  enrolments: number;
  offers: number;
  instalments: number;
  payments: number;
}

function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const id = () => {
    const hex = (n: number) => Array.from({ length: n }, () => int(16).toString(16)).join("");
    return `${hex(8)}-${hex(4)}-4${hex(3)}-b${hex(3)}-${hex(12)}`;
  };
  return { next, int, pick, id };
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const companies = [
  "Infosys",
  "TCS",
  "Wipro",
  "Persistent Systems",
  "Tech Mahindra",
  "Zensar",
  "KPIT",
  "Cognizant",
  "Accenture",
  "Capgemini",
  "LTIMindtree",
  "Bajaj Finserv",
  "Druva",
  "PubMatic",
  "Mindbowser",
];
const roles = [
  "Junior Developer",
  "Trainee Engineer",
  "UI Designer",
  "QA Engineer",
  "Data Analyst",
  "Support Engineer",
];
const lakh = 100_000 * 100;

const templates: { id: string; name: string; terms: FeeTerms; pauseRule: string }[] = [
  {
    id: "seed-terms-percent",
    name: "PAP 15 % of fixed CTC",
    terms: {
      ctcThresholdPaise: 3 * lakh,
      fee: { kind: "percent", basisPoints: 1500 },
      capPaise: 2 * lakh,
      instalments: 6,
      placementWindowMonths: 12,
      gstBasisPoints: 1800,
    },
    pauseRule: "Instalments pause while the learner is out of work, on request with proof.",
  },
  {
    id: "seed-terms-fixed",
    name: "PAP fixed ₹1,20,000",
    terms: {
      ctcThresholdPaise: 25 * 10_000 * 100,
      fee: { kind: "fixed", amountPaise: 1_20_000 * 100 },
      capPaise: null,
      instalments: 3,
      placementWindowMonths: 6,
      gstBasisPoints: 1800,
    },
    pauseRule: "Instalments pause while the learner's monthly income is below ₹20,000.",
  },
];

const chunk = 500;

async function insertChunks<T>(rows: T[], insert: (rows: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += chunk) await insert(rows.slice(i, i + chunk));
}

/** Seeds placement records for a share of the learners already in the database. */
export async function seedPlacement(db: Db, options: PlacementSeedOptions = {}): Promise<PlacementSeedResult> {
  const random = generator(options.seed ?? 20261123);
  const share = options.share ?? 0.3;
  const batchCount = options.batches ?? 40;
  const now = options.now ?? new Date();
  const today = now.toISOString().slice(0, 10);
  const at = now.toISOString();
  const tag = randomBytes(2).toString("hex");
  const result: PlacementSeedResult = { batches: 0, enrolments: 0, offers: 0, instalments: 0, payments: 0 };

  for (const template of templates) {
    const { terms } = template;
    await db
      .insertInto("fee_terms")
      .values({
        id: template.id,
        name: template.name,
        ctcThresholdPaise: terms.ctcThresholdPaise,
        feeKind: terms.fee.kind,
        feeAmountPaise: terms.fee.kind === "fixed" ? terms.fee.amountPaise : null,
        feeBasisPoints: terms.fee.kind === "percent" ? terms.fee.basisPoints : null,
        capPaise: terms.capPaise,
        instalments: terms.instalments,
        placementWindowMonths: terms.placementWindowMonths,
        gstBasisPoints: terms.gstBasisPoints,
        pauseRule: template.pauseRule,
        createdBy: "Seed",
        createdAt: at,
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  }

  // Batches ending every ~4 weeks from three years ago to four months ahead, named as staff
  // would name them; a name an earlier seed took gets this seed's tag.
  const taken = new Set((await db.selectFrom("batch").select("name").execute()).map((row) => row.name));
  const batches = Array.from({ length: batchCount }, (_, i) => {
    const endDate = addDays(today, 120 - Math.floor(((i + 1) * 3 * 365) / batchCount));
    const course = signUpCourses[i % signUpCourses.length]!;
    const pap = i % 2 === 0;
    const template = templates[i % 4 === 0 ? 0 : 1]!;
    const plainName = `${course} – ${monthNames[Number(endDate.slice(5, 7)) - 1]} ${endDate.slice(0, 4)}`;
    const name = taken.has(plainName) ? `${plainName} (${tag}-${i + 1})` : plainName;
    return {
      id: random.id(),
      name,
      course,
      startDate: addMonths(endDate, -6),
      endDate,
      payment: pap ? ("pap" as const) : ("upfront" as const),
      template: pap ? template : null,
      termsText: pap ? agreementText(template.terms, template.pauseRule, { name, endDate }) : "",
    };
  });
  await db
    .insertInto("batch")
    .values(
      batches.map((b) => ({
        id: b.id,
        name: b.name,
        course: b.course,
        startDate: b.startDate,
        endDate: b.endDate,
        payment: b.payment,
        termsId: b.template?.id ?? null,
        createdAt: at,
      })),
    )
    .execute();
  result.batches = batches.length;

  // The learners, a keyset page at a time; each is enrolled with the chance `share`.
  let after = "";
  for (;;) {
    const learners = await db
      .selectFrom("user")
      .select("id")
      .where("role", "is", null)
      .where("id", ">", after)
      .orderBy("id")
      .limit(2000)
      .execute();
    if (learners.length === 0) break;
    after = learners.at(-1)!.id;

    const enrolments: Insertable<EnrolmentTable>[] = [];
    const agreements: Insertable<AgreementTable>[] = [];
    const applications: Insertable<JobApplicationTable>[] = [];
    const stages: Insertable<ApplicationStageTable>[] = [];
    const offers: Insertable<JobOfferTable>[] = [];
    const instalments: Insertable<InstalmentTable>[] = [];
    const payments: Insertable<PaymentTable>[] = [];
    const pauses: Insertable<FeePauseTable>[] = [];
    const consents: Insertable<PublicConsentTable>[] = [];

    for (const { id: learnerId } of learners) {
      if (random.next() >= share) continue;
      const batch = random.pick(batches);
      const ended = batch.endDate < today;
      const seeking = random.next() < 0.85;
      const roll = random.next();
      const graduation = !ended ? "in-progress" : roll < 0.85 ? "graduated" : "dropped-out";
      const enrolmentId = random.id();
      enrolments.push({
        id: enrolmentId,
        batchId: batch.id,
        learnerId,
        seeking: seeking ? 1 : 0,
        graduation,
        seekingAtGraduation: graduation === "graduated" ? (seeking ? 1 : 0) : null,
        createdAt: at,
      });
      if (batch.template) {
        agreements.push({
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
      if (graduation !== "graduated" || !seeking) continue;

      // A few applications that went nowhere, then (for most) the one that was accepted.
      const application = (stage: ApplicationStage) => {
        const id = random.id();
        applications.push({
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
        stages.push({
          id: random.id(),
          applicationId: id,
          stage: "applied",
          interviewRound: 0,
          changedByName: "Seed",
          changedAt: at,
        });
        if (stage !== "applied") {
          stages.push({
            id: random.id(),
            applicationId: id,
            stage,
            interviewRound: 0,
            changedByName: "Seed",
            changedAt: at,
          });
        }
        return id;
      };
      for (let n = random.int(3); n > 0; n--)
        application(random.pick(["applied", "shortlisted", "interview", "declined"]));
      const placed = random.next() < 0.6;
      const offerRoll = random.next();
      if (!placed && offerRoll > 0.25) continue;
      const offerDate = addDays(batch.endDate, random.int(170) - 20);
      if (offerDate > today) continue;
      const joiningDate = addDays(offerDate, 15 + random.int(60));
      const fixedCtcPaise = (2_40_000 + random.int(96) * 10_000) * 100;
      const status = placed ? "verified" : offerRoll < 0.1 ? "rejected" : "pending";
      const applicationId = application(placed ? (joiningDate <= today ? "joined" : "accepted") : "offered");
      offers.push({
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
      if (placed && random.next() < 0.2) consents.push({ learnerId, consentText, givenAt: at });
      if (!placed || !batch.template) continue;

      // The schedule, as settleFees would write it, and what has been paid of it.
      const decision = decideFees(batch.template.terms, { fixedCtcPaise, joiningDate }, batch.endDate);
      const agreement = agreements.at(-1)!;
      agreement.decision = decision.owed ? "owed" : decision.reason;
      agreement.decisionText = decision.owed ? "Owed under the agreement." : decision.explanation;
      agreement.offerId = applicationId;
      if (!decision.owed) continue;
      const payer = random.next();
      for (const part of decision.instalments) {
        const instalmentId = random.id();
        const waived = random.next() < 0.02;
        instalments.push({
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
        payments.push({
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
        pauses.push({
          id: random.id(),
          enrolmentId,
          reason: "Lost their job",
          until: addDays(today, 30 + random.int(90)),
          createdByName: "Seed",
          createdAt: at,
        });
      }
    }

    await db.transaction().execute(async (trx) => {
      await insertChunks(enrolments, (rows) => trx.insertInto("enrolment").values(rows).execute());
      await insertChunks(agreements, (rows) => trx.insertInto("agreement").values(rows).execute());
      await insertChunks(applications, (rows) => trx.insertInto("job_application").values(rows).execute());
      await insertChunks(stages, (rows) => trx.insertInto("application_stage").values(rows).execute());
      await insertChunks(offers, (rows) => trx.insertInto("job_offer").values(rows).execute());
      await insertChunks(instalments, (rows) => trx.insertInto("instalment").values(rows).execute());
      await insertChunks(payments, (rows) => trx.insertInto("payment").values(rows).execute());
      await insertChunks(pauses, (rows) => trx.insertInto("fee_pause").values(rows).execute());
      await insertChunks(consents, (rows) =>
        trx
          .insertInto("public_consent")
          .values(rows)
          .onConflict((oc) => oc.column("learnerId").doNothing())
          .execute(),
      );
    });
    result.enrolments += enrolments.length;
    result.offers += offers.length;
    result.instalments += instalments.length;
    result.payments += payments.length;
  }
  return result;
}
