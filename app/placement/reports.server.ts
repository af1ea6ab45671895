import type { Selectable } from "kysely";
import type { Db } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { yieldToEventLoop } from "~/core/heavy-reports.server";
import { combineOutcomes, isPublishable, type OutcomeBatch, type OutcomeLearner, type OutcomeRow } from "./outcomes";
import { acceptedStages } from "./stages";

/*
 * The outcome report from the database, read a chunk of enrolments at a time: each enrolment's
 * batch and graduation, the first accepted offer of the placed (its dates and CTC, which the
 * medians need) and fees summed per enrolment in SQL. The arithmetic is combineOutcomes's alone.
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
export function placementQuery(db: Db) {
  return acceptedOffers(db)
    .innerJoin("enrolment", "enrolment.learnerId", "job_offer.learnerId")
    .where("enrolment.graduation", "=", "graduated")
    .where("enrolment.seekingAtGraduation", "=", 1);
}

/** Enrolments read per chunk, with their placements and fees: a few milliseconds' work each. */
export const enrolmentChunkSize = 250;

type EnrolmentRow = Pick<
  Selectable<Database["enrolment"]>,
  "id" | "batchId" | "learnerId" | "graduation" | "seekingAtGraduation"
>;

interface BatchTally {
  enrolled: number;
  graduated: number;
  seeking: number;
  placed: OutcomeLearner[];
  collectedPaise: number;
  duePaise: number;
}

/**
 * Counts, placements and fees per batch, read a chunk of enrolments at a time (in id order, each
 * chunk starting after the last one's id) with a turn of the event loop between chunks: one
 * statement over every enrolment would hold the loop for all of its run on SQLite.
 */
async function tallyBatches(
  db: Db,
  today: string,
  wanted: Set<string> | null,
  chunkSize: number,
): Promise<Map<string, BatchTally>> {
  const tallies = new Map<string, BatchTally>();
  const tallyOf = (batchId: string) => {
    let tally = tallies.get(batchId);
    if (!tally) {
      tally = { enrolled: 0, graduated: 0, seeking: 0, placed: [], collectedPaise: 0, duePaise: 0 };
      tallies.set(batchId, tally);
    }
    return tally;
  };
  let after: string | null = null;
  for (;;) {
    const enrolments: EnrolmentRow[] = await db
      .selectFrom("enrolment")
      .select(["id", "batchId", "learnerId", "graduation", "seekingAtGraduation"])
      .$if(after !== null, (q) => q.where("id", ">", after!))
      .orderBy("id")
      .limit(chunkSize)
      .execute();
    if (enrolments.length === 0) return tallies;
    const first = enrolments[0]!.id;
    const last: string = enrolments.at(-1)!.id;
    const counted = wanted ? enrolments.filter((enrolment) => wanted.has(enrolment.batchId)) : enrolments;
    const seeking = counted.filter(
      (enrolment) => enrolment.graduation === "graduated" && Number(enrolment.seekingAtGraduation) === 1,
    );
    // Offers are looked up by learner (their index).
    const seekers = [...new Set(seeking.map((enrolment) => enrolment.learnerId))];
    const [placements, paid, owed] = await Promise.all([
      seekers.length === 0
        ? []
        : db
            .selectFrom("job_offer")
            .innerJoin("job_application", "job_application.id", "job_offer.applicationId")
            .select([
              "job_offer.learnerId",
              "job_offer.status",
              "job_offer.offerDate",
              "job_offer.joiningDate",
              "job_offer.fixedCtcPaise",
            ])
            .where("job_application.stage", "in", [...acceptedStages])
            .where("job_offer.learnerId", "in", seekers)
            .orderBy("job_offer.learnerId")
            .orderBy("job_offer.joiningDate")
            .orderBy("job_offer.applicationId")
            .execute(),
      db
        .selectFrom("payment")
        .innerJoin("instalment", "instalment.id", "payment.instalmentId")
        .select((eb) => ["instalment.enrolmentId", eb.fn.sum<number | string>("payment.amountPaise").as("paise")])
        .where("instalment.enrolmentId", ">=", first)
        .where("instalment.enrolmentId", "<=", last)
        .groupBy("instalment.enrolmentId")
        .execute(),
      db
        .selectFrom("instalment")
        .select((eb) => ["enrolmentId", eb.fn.sum<number | string>("totalPaise").as("paise")])
        .where("enrolmentId", ">=", first)
        .where("enrolmentId", "<=", last)
        .where("dueDate", "<=", today)
        .where("waivedAt", "is", null)
        .groupBy("enrolmentId")
        .execute(),
    ]);
    // A learner's placement is their first offer (by joining date); each enrolment of theirs counts it.
    const placementOf = new Map<string, OutcomeLearner["placement"]>();
    for (const p of placements) {
      // Verified is checked here: in SQL, SQLite would scan every verified offer instead of the learners'.
      if (p.status !== "verified" || placementOf.has(p.learnerId)) continue;
      placementOf.set(p.learnerId, {
        offerDate: p.offerDate,
        joiningDate: p.joiningDate,
        fixedCtcPaise: paise(p.fixedCtcPaise),
      });
    }
    const batchOf = new Map<string, string>();
    for (const enrolment of counted) {
      batchOf.set(enrolment.id, enrolment.batchId);
      const tally = tallyOf(enrolment.batchId);
      tally.enrolled++;
      if (enrolment.graduation !== "graduated") continue;
      tally.graduated++;
      if (Number(enrolment.seekingAtGraduation) !== 1) continue;
      tally.seeking++;
      const placement = placementOf.get(enrolment.learnerId);
      if (placement) tally.placed.push({ graduation: "graduated", seekingAtGraduation: true, placement });
    }
    for (const row of paid) {
      const batchId = batchOf.get(row.enrolmentId);
      if (batchId !== undefined) tallyOf(batchId).collectedPaise += paise(row.paise);
    }
    for (const row of owed) {
      const batchId = batchOf.get(row.enrolmentId);
      if (batchId !== undefined) tallyOf(batchId).duePaise += paise(row.paise);
    }
    if (enrolments.length < chunkSize) return tallies;
    after = last;
    await yieldToEventLoop();
  }
}

/**
 * Every batch's records, in the order the report lists them (by course, newest first); with
 * `publishableOnly`, only batches that ended 180 days ago or more.
 */
export async function batchRecords(
  db: Db,
  today: string,
  { publishableOnly = false, chunkSize = enrolmentChunkSize } = {},
): Promise<BatchRecords[]> {
  const allBatches = await db
    .selectFrom("batch")
    .select(["id", "name", "course", "startDate", "endDate", "payment"])
    .orderBy("course")
    .orderBy("endDate", "desc")
    .orderBy("name")
    .execute();
  const batches = publishableOnly ? allBatches.filter((batch) => isPublishable(batch.endDate, today)) : allBatches;
  if (batches.length === 0) return [];
  const wanted = publishableOnly ? new Set(batches.map((batch) => batch.id)) : null;
  const tallies = await tallyBatches(db, today, wanted, chunkSize);
  return batches.map((batch) => {
    const tally = tallies.get(batch.id);
    const placed = tally?.placed ?? [];
    const { enrolled = 0, graduated = 0, seeking = 0 } = tally ?? {};
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
        fees: { collectedPaise: tally?.collectedPaise ?? 0, duePaise: tally?.duePaise ?? 0 },
      },
    };
  });
}

/** The report's rows, a turn of the event loop after each (a row walks all of its learners). */
export async function reportOf(today: string, batches: BatchRecords[]): Promise<OutcomeReport> {
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
export async function outcomeReport(db: Db, today: string, chunkSize = enrolmentChunkSize): Promise<OutcomeReport> {
  return reportOf(today, await batchRecords(db, today, { chunkSize }));
}
