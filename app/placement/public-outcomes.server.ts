import { sql, type SqlBool } from "kysely";
import type { Db } from "~/db/database.server";
import { yieldToEventLoop } from "~/core/heavy-reports.server";
import { daysBetween } from "./fees";
import { placementDays } from "./outcomes";
import { acceptedStages } from "./stages";
import { batchRecords, reportOf, type BatchRecords, type OutcomeReport } from "./reports.server";

// What the public sees of the outcomes: the /outcomes page (aggregates of batches that ended
// long enough ago, and the names of the placed who consented) and the landing page's one figure.

export interface PublicPlacement {
  name: string;
  company: string;
  batch: string;
}

/** At most this many names on the public page (the newest batches first). */
export const publicNamesLimit = 500;

/** Offers read per statement for the names: a millisecond's work on SQLite. */
const namesPageSize = 250;

/** Where a page of offers ends: the next starts after it. */
interface OfferKey {
  enrolmentId: string;
  joiningDate: string;
  applicationId: string;
}

/**
 * Accepted offers of consenting graduates seeking a job in batches `ending`, by enrolment, then
 * joining date. Read from the batches' enrolments, and whether an offer is verified is left to
 * the caller: asked in SQL, SQLite would start from every verified offer there is.
 */
function consentedOffers(db: Db, ending: string[], after: OfferKey | null, limit: number) {
  return db
    .selectFrom("enrolment")
    .innerJoin("public_consent", "public_consent.learnerId", "enrolment.learnerId")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .innerJoin("job_offer", "job_offer.learnerId", "enrolment.learnerId")
    .innerJoin("job_application", "job_application.id", "job_offer.applicationId")
    .select([
      "enrolment.id as enrolmentId",
      "enrolment.batchId",
      "user.username",
      "user.name",
      "job_application.company",
      "job_offer.status",
      "job_offer.joiningDate",
      "job_offer.applicationId",
    ])
    .where("enrolment.batchId", "in", ending)
    .where("enrolment.graduation", "=", "graduated")
    .where("enrolment.seekingAtGraduation", "=", 1)
    .where("job_application.stage", "in", [...acceptedStages])
    .$if(after !== null, (q) =>
      q.where(
        sql<SqlBool>`("enrolment"."id", "job_offer"."joiningDate", "job_offer"."applicationId") > (${after!.enrolmentId}, ${after!.joiningDate}, ${after!.applicationId})`,
      ),
    )
    .orderBy("enrolment.id")
    .orderBy("job_offer.joiningDate")
    .orderBy("job_offer.applicationId")
    .limit(limit)
    .execute();
}

/**
 * The names of placed learners who consented, newest batches first: one end date at a time, a
 * page of offers per statement (each page starting after the last one's last offer), a turn of
 * the event loop between statements; at most `publicNamesLimit * 4` offers read in all. An
 * enrolment's placement is its first verified offer.
 */
async function placedNames(db: Db, batches: BatchRecords[], pageSize: number): Promise<PublicPlacement[]> {
  const batchOf = new Map(batches.map((batch) => [batch.meta.id, batch.meta]));
  const endDates = [...new Set(batches.map((batch) => batch.meta.endDate))].sort().reverse();
  const placedByName: PublicPlacement[] = [];
  let rowsLeft = publicNamesLimit * 4;
  for (const endDate of endDates) {
    const ending = batches.filter((batch) => batch.meta.endDate === endDate).map((batch) => batch.meta.id);
    let after: OfferKey | null = null;
    let placed = "";
    for (;;) {
      if (rowsLeft === 0 || placedByName.length === publicNamesLimit) return placedByName;
      const limit = Math.min(pageSize, rowsLeft);
      const page = await consentedOffers(db, ending, after, limit);
      rowsLeft -= page.length;
      for (const row of page) {
        if (row.enrolmentId === placed || row.status !== "verified") continue;
        placed = row.enrolmentId;
        const batch = batchOf.get(row.batchId);
        // The email is never shown publicly: a learner without a name is left out.
        const name = row.username || row.name;
        if (!batch || !name || daysBetween(batch.endDate, row.joiningDate) > placementDays) continue;
        placedByName.push({ name, company: row.company, batch: batch.name });
        if (placedByName.length === publicNamesLimit) return placedByName;
      }
      await yieldToEventLoop();
      if (page.length < limit) break;
      after = page.at(-1)!;
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
): Promise<PublicOutcomes> {
  return publicOutcomesFrom(db, await publicAggregates(db, today), namesPerStatement);
}

export type PublicOutcomes = OutcomeReport & { placedByName: PublicPlacement[] };

/** What /outcomes and the landing figure count: the publishable batches and their report. */
export interface PublicAggregates {
  batches: BatchRecords[];
  report: OutcomeReport;
}

/** Reads every publishable batch: the costly part, the same whoever has consented. */
export async function publicAggregates(db: Db, today: string): Promise<PublicAggregates> {
  const batches = await batchRecords(db, today, { publishableOnly: true });
  return { batches, report: await reportOf(today, batches) };
}

/** The public page from its aggregates: only the names are read. */
export async function publicOutcomesFrom(
  db: Db,
  { batches, report }: PublicAggregates,
  namesPerStatement = namesPageSize,
): Promise<PublicOutcomes> {
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
  return headlineOf(await publicAggregates(db, today));
}

/** The landing figure from the aggregates /outcomes shows. */
export function headlineOf({ batches, report }: PublicAggregates): PlacementHeadline | null {
  const all = report.all;
  if (all.placementRate.percent === null) return null;
  return {
    percent: all.placementRate.percent,
    placed: all.placementRate.numerator,
    seeking: all.placementRate.denominator,
    endedBy: batches.reduce((latest, batch) => (batch.meta.endDate > latest ? batch.meta.endDate : latest), ""),
  };
}
