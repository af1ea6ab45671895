import { sql } from "kysely";
import type { Db } from "~/db/database.server";
import { daysBetween } from "./fees";
import {
  combineOutcomes,
  isPublishable,
  placementDays,
  type OutcomeBatch,
  type OutcomeLearner,
  type OutcomeRow,
} from "./outcomes";
import { acceptedStages } from "./stages";

/*
 * The outcome report from the database. Counting is done in SQL, one grouped statement per
 * measure for all batches at once; only placed learners come back one row each (their offer's
 * dates and CTC, which the medians need). The arithmetic is combineOutcomes's alone.
 *
 * A learner's placement is their first verified offer (by joining date) whose application was
 * accepted (accepted, joined or left), as settleFees weighs it. Fees are per batch: collected is
 * every payment on the batch's instalments, due is the total of its instalments falling due by
 * today that were not waived.
 */

const paise = (value: number | string | null): number => (value === null ? 0 : Number(value));

export interface BatchOutcome {
  id: string;
  name: string;
  course: string;
  startDate: string;
  endDate: string;
  payment: "pap" | "upfront";
  row: OutcomeRow;
}

export interface CourseOutcome {
  course: string;
  batches: number;
  row: OutcomeRow;
}

export interface OutcomeReport {
  today: string;
  batches: BatchOutcome[];
  courses: CourseOutcome[];
  all: OutcomeRow;
}

interface BatchRecords {
  meta: Omit<BatchOutcome, "row">;
  records: OutcomeBatch;
}

// The learners who are not placed only need to be counted: they are shared placeholders, so a
// batch of thousands costs an array of references, not thousands of objects.
const notGraduated: OutcomeLearner = { graduation: "in-progress", seekingAtGraduation: false, placement: null };
const notSeeking: OutcomeLearner = { graduation: "graduated", seekingAtGraduation: false, placement: null };
const seekingUnplaced: OutcomeLearner = { graduation: "graduated", seekingAtGraduation: true, placement: null };

/** Placements of graduates seeking a job: one row per enrolment, its first accepted verified offer. */
function placementQuery(db: Db) {
  return db
    .selectFrom("enrolment")
    .innerJoin("job_offer", "job_offer.learnerId", "enrolment.learnerId")
    .innerJoin("job_application", "job_application.id", "job_offer.applicationId")
    .where("enrolment.graduation", "=", "graduated")
    .where("enrolment.seekingAtGraduation", "=", 1)
    .where("job_offer.status", "=", "verified")
    .where("job_application.stage", "in", [...acceptedStages]);
}

/**
 * Every batch's records, in the order the report lists them (by course, newest first); with
 * `publishableOnly`, only batches that ended 180 days ago or more are read at all.
 */
async function batchRecords(db: Db, today: string, publishableOnly = false): Promise<BatchRecords[]> {
  const allBatches = await db
    .selectFrom("batch")
    .select(["id", "name", "course", "startDate", "endDate", "payment"])
    .orderBy("course")
    .orderBy("endDate", "desc")
    .orderBy("name")
    .execute();
  const batches = publishableOnly ? allBatches.filter((batch) => isPublishable(batch.endDate, today)) : allBatches;
  if (batches.length === 0) return [];
  const only = publishableOnly ? batches.map((batch) => batch.id) : null;
  const [counts, placements, collected, due] = await Promise.all([
    db
      .selectFrom("enrolment")
      .$if(only !== null, (q) => q.where("enrolment.batchId", "in", only!))
      .select((eb) => [
        "batchId",
        eb.fn.countAll<number | string>().as("enrolled"),
        eb.fn.sum<number | string>(sql`case when "graduation" = 'graduated' then 1 else 0 end`).as("graduated"),
        eb.fn
          .sum<number | string>(
            sql`case when "graduation" = 'graduated' and "seekingAtGraduation" = 1 then 1 else 0 end`,
          )
          .as("seeking"),
      ])
      .groupBy("batchId")
      .execute(),
    // Not narrowed to the batches read: SQLite would then probe each offer once per batch id,
    // 5× slower than reading them all; placements of other batches are simply not looked up.
    placementQuery(db)
      .select([
        "enrolment.id as enrolmentId",
        "enrolment.batchId",
        "job_offer.offerDate",
        "job_offer.joiningDate",
        "job_offer.fixedCtcPaise",
      ])
      .orderBy("enrolment.id")
      .orderBy("job_offer.joiningDate")
      .orderBy("job_offer.applicationId")
      .execute(),
    db
      .selectFrom("payment")
      .innerJoin("instalment", "instalment.id", "payment.instalmentId")
      .innerJoin("enrolment", "enrolment.id", "instalment.enrolmentId")
      .select((eb) => ["enrolment.batchId", eb.fn.sum<number | string>("payment.amountPaise").as("paid")])
      .$if(only !== null, (q) => q.where("enrolment.batchId", "in", only!))
      .groupBy("enrolment.batchId")
      .execute(),
    // Summed per enrolment first: the batch is then looked up once per schedule, not per instalment.
    db
      .selectFrom(
        db
          .selectFrom("instalment")
          .select((eb) => ["enrolmentId", eb.fn.sum<number | string>("totalPaise").as("due")])
          .where("dueDate", "<=", today)
          .where("waivedAt", "is", null)
          .groupBy("enrolmentId")
          .as("owed"),
      )
      .innerJoin("enrolment", "enrolment.id", "owed.enrolmentId")
      .select((eb) => ["enrolment.batchId", eb.fn.sum<number | string>("owed.due").as("due")])
      .$if(only !== null, (q) => q.where("enrolment.batchId", "in", only!))
      .groupBy("enrolment.batchId")
      .execute(),
  ]);

  const countsOf = new Map(counts.map((c) => [c.batchId, c]));
  const collectedOf = new Map(collected.map((c) => [c.batchId, paise(c.paid)]));
  const dueOf = new Map(due.map((d) => [d.batchId, paise(d.due)]));
  const placedOf = new Map<string, OutcomeLearner[]>();
  let lastEnrolment = "";
  for (const p of placements) {
    if (p.enrolmentId === lastEnrolment) continue; // a later offer of the same learner
    lastEnrolment = p.enrolmentId;
    let list = placedOf.get(p.batchId);
    if (!list) placedOf.set(p.batchId, (list = []));
    list.push({
      graduation: "graduated",
      seekingAtGraduation: true,
      placement: { offerDate: p.offerDate, joiningDate: p.joiningDate, fixedCtcPaise: paise(p.fixedCtcPaise) },
    });
  }

  return batches.map((batch) => {
    const count = countsOf.get(batch.id);
    const enrolled = Number(count?.enrolled ?? 0);
    const graduated = Number(count?.graduated ?? 0);
    const seeking = Number(count?.seeking ?? 0);
    const placed = placedOf.get(batch.id) ?? [];
    const learners = placed.concat(
      new Array<OutcomeLearner>(seeking - placed.length).fill(seekingUnplaced),
      new Array<OutcomeLearner>(graduated - seeking).fill(notSeeking),
      new Array<OutcomeLearner>(enrolled - graduated).fill(notGraduated),
    );
    return {
      meta: batch,
      records: {
        batchEndDate: batch.endDate,
        learners,
        fees: { collectedPaise: collectedOf.get(batch.id) ?? 0, duePaise: dueOf.get(batch.id) ?? 0 },
      },
    };
  });
}

function reportOf(today: string, batches: BatchRecords[]): OutcomeReport {
  const byCourse = new Map<string, OutcomeBatch[]>();
  for (const batch of batches) {
    const list = byCourse.get(batch.meta.course) ?? [];
    list.push(batch.records);
    byCourse.set(batch.meta.course, list);
  }
  return {
    today,
    batches: batches.map((batch) => ({ ...batch.meta, row: combineOutcomes([batch.records]) })),
    courses: [...byCourse].map(([course, list]) => ({ course, batches: list.length, row: combineOutcomes(list) })),
    all: combineOutcomes(batches.map((batch) => batch.records)),
  };
}

/** The staff report: every batch, every course and all of them together. */
export async function outcomeReport(db: Db, today: string): Promise<OutcomeReport> {
  return reportOf(today, await batchRecords(db, today));
}

export interface PublicPlacement {
  name: string;
  company: string;
  batch: string;
}

/** At most this many names on the public page (the newest batches first). */
export const publicNamesLimit = 500;

/**
 * The public page: batches that ended at least 180 days ago, aggregates only, and the names of
 * placed learners who gave their consent (a learner who withdrew it is simply not read).
 */
export async function publicOutcomes(
  db: Db,
  today: string,
): Promise<OutcomeReport & { placedByName: PublicPlacement[] }> {
  const batches = await batchRecords(db, today, true);
  const report = reportOf(today, batches);
  if (batches.length === 0) return { ...report, placedByName: [] };
  const batchOf = new Map(batches.map((batch) => [batch.meta.id, batch.meta]));
  const consented = await placementQuery(db)
    .innerJoin("public_consent", "public_consent.learnerId", "enrolment.learnerId")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .select([
      "enrolment.id as enrolmentId",
      "enrolment.batchId",
      "user.username",
      "user.name",
      "job_application.company",
      "job_offer.joiningDate",
    ])
    .where("batch.id", "in", [...batchOf.keys()])
    .orderBy("batch.endDate", "desc")
    .orderBy("enrolment.id")
    .orderBy("job_offer.joiningDate")
    .orderBy("job_offer.applicationId")
    .limit(publicNamesLimit * 4)
    .execute();
  const placedByName: PublicPlacement[] = [];
  let lastEnrolment = "";
  for (const row of consented) {
    if (row.enrolmentId === lastEnrolment) continue;
    lastEnrolment = row.enrolmentId;
    const batch = batchOf.get(row.batchId);
    // The email is never shown publicly: a learner without a name is left out.
    const name = row.username || row.name;
    if (!batch || !name || daysBetween(batch.endDate, row.joiningDate) > placementDays) continue;
    placedByName.push({ name, company: row.company, batch: batch.name });
    if (placedByName.length === publicNamesLimit) break;
  }
  return { ...report, placedByName };
}

/** The landing page's one figure: every publishable batch together, as /outcomes counts them. */
export interface PlacementHeadline {
  percent: number;
  placed: number;
  seeking: number;
  /** The latest end date among the batches counted. */
  endedBy: string;
}

/** Null until a batch that ended 180 days ago or more had a graduate seeking a job: no number without records. */
export async function placementHeadline(db: Db, today: string): Promise<PlacementHeadline | null> {
  const batches = await batchRecords(db, today, true);
  const all = combineOutcomes(batches.map((batch) => batch.records));
  if (all.placementRate.percent === null) return null;
  return {
    percent: all.placementRate.percent,
    placed: all.placementRate.numerator,
    seeking: all.placementRate.denominator,
    endedBy: batches.reduce((latest, batch) => (batch.meta.endDate > latest ? batch.meta.endDate : latest), ""),
  };
}
