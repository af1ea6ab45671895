import { randomBytes } from "node:crypto";
import { signUpCourses } from "~/content/site-content";
import type { Db } from "~/db/database.server";
import { agreementText } from "./agreement-text";
import { addMonths } from "./fees";
import { seededRandom } from "~/core/seeded-random";
import { addDays, monthNames, templates } from "./seed-fixtures";
import { emptySeedRows, seedLearner, type SeedRows, type SeedRun } from "./seed-learner.server";

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

const chunk = 500;

async function insertChunks<T>(rows: T[], insert: (rows: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += chunk) await insert(rows.slice(i, i + chunk));
}

async function seedTerms(db: Db, at: string) {
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
}

/**
 * Batches ending every ~4 weeks from three years ago to four months ahead, named as staff would
 * name them; a name an earlier seed took gets this seed's tag.
 */
async function seedBatches(db: Db, { random, today, at }: SeedRun, batchCount: number) {
  const tag = randomBytes(2).toString("hex");
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
  return batches;
}

async function insertRows(db: Db, rows: SeedRows) {
  await db.transaction().execute(async (trx) => {
    await insertChunks(rows.enrolments, (part) => trx.insertInto("enrolment").values(part).execute());
    await insertChunks(rows.agreements, (part) => trx.insertInto("agreement").values(part).execute());
    await insertChunks(rows.applications, (part) => trx.insertInto("job_application").values(part).execute());
    await insertChunks(rows.stages, (part) => trx.insertInto("application_stage").values(part).execute());
    await insertChunks(rows.offers, (part) => trx.insertInto("job_offer").values(part).execute());
    await insertChunks(rows.instalments, (part) => trx.insertInto("instalment").values(part).execute());
    await insertChunks(rows.payments, (part) => trx.insertInto("payment").values(part).execute());
    await insertChunks(rows.pauses, (part) => trx.insertInto("fee_pause").values(part).execute());
    await insertChunks(rows.consents, (part) =>
      trx
        .insertInto("public_consent")
        .values(part)
        .onConflict((oc) => oc.column("learnerId").doNothing())
        .execute(),
    );
  });
}

/** Seeds placement records for a share of the learners already in the database. */
export async function seedPlacement(db: Db, options: PlacementSeedOptions = {}): Promise<PlacementSeedResult> {
  const share = options.share ?? 0.3;
  const now = options.now ?? new Date();
  const run: SeedRun = {
    random: seededRandom(options.seed ?? 20261123, "b"),
    today: now.toISOString().slice(0, 10),
    at: now.toISOString(),
  };
  await seedTerms(db, run.at);
  const batches = await seedBatches(db, run, options.batches ?? 40);
  const result: PlacementSeedResult = {
    batches: batches.length,
    enrolments: 0,
    offers: 0,
    instalments: 0,
    payments: 0,
  };

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
    const rows = emptySeedRows();
    for (const { id: learnerId } of learners) {
      if (run.random.next() < share) seedLearner(rows, run, learnerId, batches);
    }
    await insertRows(db, rows);
    result.enrolments += rows.enrolments.length;
    result.offers += rows.offers.length;
    result.instalments += rows.instalments.length;
    result.payments += rows.payments.length;
  }
  return result;
}
