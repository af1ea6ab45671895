import { sql } from "kysely";
import type { Db } from "~/db/database.server";
import { yieldToEventLoop } from "~/core/heavy-reports.server";
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
 * The outcome report from the database, a batch at a time with a turn of the event loop between
 * batches: each batch's counts and fees aggregated in SQL, and the first accepted offer of each
 * of its placed learners (their dates and CTC, which the medians need). The arithmetic is
 * combineOutcomes's alone.
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

/** Verified offers whose application was accepted: what places a learner. */
function acceptedOffers(db: Db) {
  return db
    .selectFrom("job_offer")
    .innerJoin("job_application", "job_application.id", "job_offer.applicationId")
    .where("job_offer.status", "=", "verified")
    .where("job_application.stage", "in", [...acceptedStages]);
}

/** Placements of graduates seeking a job: one row per enrolment and accepted verified offer. */
function placementQuery(db: Db) {
  return acceptedOffers(db)
    .innerJoin("enrolment", "enrolment.learnerId", "job_offer.learnerId")
    .where("enrolment.graduation", "=", "graduated")
    .where("enrolment.seekingAtGraduation", "=", 1);
}

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
async function batchRecords(db: Db, today: string, { publishableOnly = false } = {}): Promise<BatchRecords[]> {
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

/** The report's rows, a turn of the event loop after each (a row walks all of its learners). */
async function reportOf(today: string, batches: BatchRecords[]): Promise<OutcomeReport> {
  const byCourse = new Map<string, OutcomeBatch[]>();
  for (const batch of batches) {
    const list = byCourse.get(batch.meta.course) ?? [];
    list.push(batch.records);
    byCourse.set(batch.meta.course, list);
  }
  const batchRows: BatchOutcome[] = [];
  for (const batch of batches) {
    batchRows.push({ ...batch.meta, row: combineOutcomes([batch.records]) });
    await yieldToEventLoop();
  }
  const courses: CourseOutcome[] = [];
  for (const [course, list] of byCourse) {
    courses.push({ course, batches: list.length, row: combineOutcomes(list) });
    await yieldToEventLoop();
  }
  return { today, batches: batchRows, courses, all: combineOutcomes(batches.map((batch) => batch.records)) };
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

/** Offers read per statement for the names: a millisecond's work on SQLite. */
const namesPageSize = 250;

/** Consented placements in batches `ending`, by enrolment; the first of each enrolment is its placement. */
function consentedPlacements(db: Db, ending: string[], afterEnrolment: string, limit: number) {
  return placementQuery(db)
    .innerJoin("public_consent", "public_consent.learnerId", "enrolment.learnerId")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .select([
      "enrolment.id as enrolmentId",
      "enrolment.batchId",
      "user.username",
      "user.name",
      "job_application.company",
      "job_offer.joiningDate",
    ])
    .where("enrolment.batchId", "in", ending)
    .$if(afterEnrolment !== "", (q) => q.where("enrolment.id", ">", afterEnrolment))
    .orderBy("enrolment.id")
    .orderBy("job_offer.joiningDate")
    .orderBy("job_offer.applicationId")
    .limit(limit)
    .execute();
}

/**
 * The names of placed learners who consented, newest batches first: one end date at a time, a
 * page of offers per statement (the next page starts after the last page's last enrolment,
 * whose first offer has been read), a turn of the event loop between statements; at most
 * `publicNamesLimit * 4` offers read in all.
 */
async function placedNames(db: Db, batches: BatchRecords[], pageSize: number): Promise<PublicPlacement[]> {
  const batchOf = new Map(batches.map((batch) => [batch.meta.id, batch.meta]));
  const endDates = [...new Set(batches.map((batch) => batch.meta.endDate))].sort().reverse();
  const placedByName: PublicPlacement[] = [];
  let rowsLeft = publicNamesLimit * 4;
  for (const endDate of endDates) {
    const ending = batches.filter((batch) => batch.meta.endDate === endDate).map((batch) => batch.meta.id);
    let lastEnrolment = "";
    for (;;) {
      if (rowsLeft === 0 || placedByName.length === publicNamesLimit) return placedByName;
      const limit = Math.min(pageSize, rowsLeft);
      const page = await consentedPlacements(db, ending, lastEnrolment, limit);
      rowsLeft -= page.length;
      for (const row of page) {
        if (row.enrolmentId === lastEnrolment) continue;
        lastEnrolment = row.enrolmentId;
        const batch = batchOf.get(row.batchId);
        // The email is never shown publicly: a learner without a name is left out.
        const name = row.username || row.name;
        if (!batch || !name || daysBetween(batch.endDate, row.joiningDate) > placementDays) continue;
        placedByName.push({ name, company: row.company, batch: batch.name });
        if (placedByName.length === publicNamesLimit) return placedByName;
      }
      await yieldToEventLoop();
      if (page.length < limit) break;
    }
  }
  return placedByName;
}

/**
 * The public page: batches that ended at least 180 days ago, aggregates only, and the names of
 * placed learners who gave their consent (a learner who withdrew it is simply not read).
 */
export async function publicOutcomes(
  db: Db,
  today: string,
  namesPerStatement = namesPageSize,
): Promise<OutcomeReport & { placedByName: PublicPlacement[] }> {
  const batches = await batchRecords(db, today, { publishableOnly: true });
  const report = await reportOf(today, batches);
  return { ...report, placedByName: await placedNames(db, batches, namesPerStatement) };
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
  const batches = await batchRecords(db, today, { publishableOnly: true });
  const all = combineOutcomes(batches.map((batch) => batch.records));
  if (all.placementRate.percent === null) return null;
  return {
    percent: all.placementRate.percent,
    placed: all.placementRate.numerator,
    seeking: all.placementRate.denominator,
    endedBy: batches.reduce((latest, batch) => (batch.meta.endDate > latest ? batch.meta.endDate : latest), ""),
  };
}
