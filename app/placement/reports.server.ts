import { sql } from "kysely";
import type { Db } from "~/db/database.server";
import { yieldToEventLoop } from "~/core/heavy-reports.server";
import {
  isPublishable,
  rowOfTallies,
  tallyOutcomes,
  type OutcomeBatch,
  type OutcomeLearner,
  type OutcomeRow,
  type OutcomeTally,
} from "./outcomes";
import { acceptedStages } from "./stages";
import { paise } from "~/core/money";

/*
 * The outcome report from the database, a batch at a time with a turn of the event loop between
 * batches: each batch's counts and fees aggregated in SQL, and the first accepted offer of each
 * of its placed learners (their dates and CTC, which the medians need). The arithmetic is
 * outcomes.ts's alone (each batch tallied once, rows made from the tallies).
 *
 * A learner's placement is their first verified offer (by joining date) whose application was
 * accepted (accepted, joined or left), as settleFees weighs it. Fees are per batch: collected is
 * every payment on the batch's instalments, due is the total of its instalments falling due by
 * today that were not waived.
 */

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

export interface BatchRecords {
  meta: Omit<BatchOutcome, "row">;
  records: OutcomeBatch;
}

// The learners who are not placed only need to be counted: they are shared placeholders, so a
// batch of thousands costs an array of references, not thousands of objects.
const notGraduated: OutcomeLearner = { graduation: "in-progress", seekingAtGraduation: false, placement: null };
const notSeeking: OutcomeLearner = { graduation: "graduated", seekingAtGraduation: false, placement: null };
const seekingUnplaced: OutcomeLearner = { graduation: "graduated", seekingAtGraduation: true, placement: null };

interface BatchTally {
  enrolled: number;
  graduated: number;
  seeking: number;
  placed: OutcomeLearner[];
  collectedPaise: number;
  duePaise: number;
}

/** How a batch's enrolments count: one row, aggregated in SQL. */
function batchCounts(db: Db, batchId: string, today: string) {
  return db
    .selectFrom("enrolment")
    .select((eb) => [
      eb.fn.countAll<number | string>().as("enrolled"),
      eb.fn.sum<number | string | null>(sql`case when "graduation" = 'graduated' then 1 else 0 end`).as("graduated"),
      eb.fn
        .sum<number | string | null>(
          sql`case when "graduation" = 'graduated' and "seekingAtGraduation" = 1 then 1 else 0 end`,
        )
        .as("seeking"),
      // Fees per batch: every payment on its instalments, and its instalments due by today and not waived.
      eb
        .selectFrom("payment")
        .innerJoin("instalment", "instalment.id", "payment.instalmentId")
        .innerJoin("enrolment as paying", "paying.id", "instalment.enrolmentId")
        .select((p) => p.fn.sum<number | string | null>("payment.amountPaise").as("paise"))
        .where("paying.batchId", "=", batchId)
        .as("collectedPaise"),
      eb
        .selectFrom("instalment")
        .innerJoin("enrolment as owing", "owing.id", "instalment.enrolmentId")
        .select((p) => p.fn.sum<number | string | null>("instalment.totalPaise").as("paise"))
        .where("owing.batchId", "=", batchId)
        .where("instalment.dueDate", "<=", today)
        .where("instalment.waivedAt", "is", null)
        .as("duePaise"),
    ])
    .where("batchId", "=", batchId)
    .executeTakeFirstOrThrow();
}

/** The accepted offers of a batch's graduates seeking a job, each learner's first (by joining date) first. */
function batchOffers(db: Db, batchId: string) {
  return db
    .selectFrom("enrolment")
    .innerJoin("job_offer", "job_offer.learnerId", "enrolment.learnerId")
    .innerJoin("job_application", "job_application.id", "job_offer.applicationId")
    .select([
      "job_offer.learnerId",
      "job_offer.status",
      "job_offer.offerDate",
      "job_offer.joiningDate",
      "job_offer.fixedCtcPaise",
    ])
    .where("enrolment.batchId", "=", batchId)
    .where("enrolment.graduation", "=", "graduated")
    .where("enrolment.seekingAtGraduation", "=", 1)
    .where("job_application.stage", "in", [...acceptedStages])
    .orderBy("job_offer.learnerId")
    .orderBy("job_offer.joiningDate")
    .orderBy("job_offer.applicationId")
    .execute();
}

/**
 * One batch's counts, placements and fees: two statements, each bounded by the batch's own
 * size (a class, not the whole institute), so that no statement holds the event loop for long
 * on SQLite however many learners there are in all.
 */
async function tallyBatch(db: Db, batchId: string, today: string): Promise<BatchTally> {
  const counts = await batchCounts(db, batchId, today);
  const placed: OutcomeLearner[] = [];
  let previous = "";
  for (const offer of await batchOffers(db, batchId)) {
    // Verified is checked here: in SQL, SQLite would scan every verified offer instead of the batch's learners'.
    if (offer.status !== "verified" || offer.learnerId === previous) continue;
    previous = offer.learnerId;
    placed.push({
      graduation: "graduated",
      seekingAtGraduation: true,
      placement: {
        offerDate: offer.offerDate,
        joiningDate: offer.joiningDate,
        fixedCtcPaise: paise(offer.fixedCtcPaise),
      },
    });
  }
  return {
    enrolled: paise(counts.enrolled),
    graduated: paise(counts.graduated),
    seeking: paise(counts.seeking),
    placed,
    collectedPaise: paise(counts.collectedPaise),
    duePaise: paise(counts.duePaise),
  };
}

/**
 * Every batch's records, in the order the report lists them (by course, newest first); with
 * `publishableOnly`, only batches that ended 180 days ago or more.
 */
export async function batchRecords(db: Db, today: string, { publishableOnly = false } = {}): Promise<BatchRecords[]> {
  const allBatches = await db
    .selectFrom("batch")
    .select(["id", "name", "course", "startDate", "endDate", "payment"])
    .orderBy("course")
    .orderBy("endDate", "desc")
    .orderBy("name")
    .execute();
  const batches = publishableOnly ? allBatches.filter((batch) => isPublishable(batch.endDate, today)) : allBatches;
  const records: BatchRecords[] = [];
  for (const batch of batches) {
    const { enrolled, graduated, seeking, placed, collectedPaise, duePaise } = await tallyBatch(db, batch.id, today);
    const learners = placed.concat(
      new Array<OutcomeLearner>(seeking - placed.length).fill(seekingUnplaced),
      new Array<OutcomeLearner>(graduated - seeking).fill(notSeeking),
      new Array<OutcomeLearner>(enrolled - graduated).fill(notGraduated),
    );
    records.push({
      meta: batch,
      records: { batchEndDate: batch.endDate, learners, fees: { collectedPaise, duePaise } },
    });
    await yieldToEventLoop();
  }
  return records;
}

/** Each batch's tally, a turn of the event loop after each (a tally walks all of its learners). */
export async function tallied(batches: BatchRecords[]): Promise<OutcomeTally[]> {
  const tallies: OutcomeTally[] = [];
  for (const batch of batches) {
    tallies.push(tallyOutcomes(batch.records));
    await yieldToEventLoop();
  }
  return tallies;
}

/** The report's rows: each batch's, each course's and all of them, from the batches' tallies. */
export async function reportOf(today: string, batches: BatchRecords[]): Promise<OutcomeReport> {
  const tallies = await tallied(batches);
  const byCourse = new Map<string, OutcomeTally[]>();
  batches.forEach((batch, i) => {
    const list = byCourse.get(batch.meta.course) ?? [];
    list.push(tallies[i]!);
    byCourse.set(batch.meta.course, list);
  });
  const batchRows: BatchOutcome[] = batches.map((batch, i) => ({ ...batch.meta, row: rowOfTallies([tallies[i]!]) }));
  const courses: CourseOutcome[] = [...byCourse].map(([course, list]) => ({
    course,
    batches: list.length,
    row: rowOfTallies(list),
  }));
  return { today, batches: batchRows, courses, all: rowOfTallies(tallies) };
}

/** The staff report: every batch, every course and all of them together. */
export async function outcomeReport(db: Db, today: string): Promise<OutcomeReport> {
  return reportOf(today, await batchRecords(db, today));
}
