import { daysBetween } from "./fees";

/*
 * The outcome report, after the bootcamp outcomes standard (CIRR), pure. Decisions:
 * - Seeking counts graduates only: "seeking a job" is the value recorded at graduation, and a
 *   learner who dropped out or is still studying is in no rate.
 * - Placed within 180 days: graduated, seeking, with a verified accepted offer whose joining
 *   date is at most 180 days after the batch's end date (day 180 counts, day 181 does not; a
 *   joining date before the end date counts). A non-seeker or dropout with an offer is not placed.
 * - The rate is placed / graduated-and-seeking, to one decimal, rounded half up; null when no
 *   graduate was seeking (never a 0 % that hides an empty batch).
 * - Medians and the highest CTC are among those placed within 180 days. The median of an even
 *   count is the mean of the two middle values rounded down (to the paisa, to the day).
 * - Days to offer run from the batch's end date to the offer date; an offer made before
 *   graduation counts as 0 days, not a negative number.
 * - A course's row is computed from the union of its batches' learners, each measured from their
 *   own batch's end date (medians are never averaged); fees are summed.
 */

export const placementDays = 180;

export interface OutcomeLearner {
  graduation: "graduated" | "dropped-out" | "in-progress";
  /** The value recorded at graduation. */
  seekingAtGraduation: boolean;
  /** A verified, accepted offer only. */
  placement: { offerDate: string; joiningDate: string; fixedCtcPaise: number } | null;
}

export interface OutcomeRow {
  enrolled: number;
  graduated: number;
  seeking: number;
  placedWithin180Days: number;
  placementRate: { numerator: number; denominator: number; percent: number | null };
  medianCtcPaise: number | null;
  highestCtcPaise: number | null;
  medianDaysToOffer: number | null;
  feesCollectedPaise: number;
  feesDuePaise: number;
}

/** One batch's records: its end date, its learners and the fees collected and due. */
export interface OutcomeBatch {
  batchEndDate: string;
  learners: OutcomeLearner[];
  fees: { collectedPaise: number; duePaise: number };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  if (sorted.length % 2 === 1) return upper;
  return Math.floor(((sorted[middle - 1] ?? 0) + upper) / 2);
}

/** Percent to one decimal, half up, in integers: 2/3 → 66.7. */
function percentOf(numerator: number, denominator: number): number | null {
  if (denominator === 0) return null;
  return Math.floor((numerator * 2000 + denominator) / (2 * denominator)) / 10;
}

/**
 * One batch's learners reduced to what rows are made of: the counts, the fees, and each
 * placement's CTC and days to offer (measured from this batch's end date). A group's row is made
 * from its batches' tallies, so each learner is walked once however many rows count them.
 */
export interface OutcomeTally {
  enrolled: number;
  graduated: number;
  seeking: number;
  ctcs: number[];
  daysToOffer: number[];
  feesCollectedPaise: number;
  feesDuePaise: number;
}

export function tallyOutcomes(batch: OutcomeBatch): OutcomeTally {
  const tally: OutcomeTally = {
    enrolled: 0,
    graduated: 0,
    seeking: 0,
    ctcs: [],
    daysToOffer: [],
    feesCollectedPaise: batch.fees.collectedPaise,
    feesDuePaise: batch.fees.duePaise,
  };
  for (const learner of batch.learners) {
    tally.enrolled++;
    if (learner.graduation !== "graduated") continue;
    tally.graduated++;
    if (!learner.seekingAtGraduation) continue;
    tally.seeking++;
    const placement = learner.placement;
    if (!placement || daysBetween(batch.batchEndDate, placement.joiningDate) > placementDays) continue;
    tally.ctcs.push(placement.fixedCtcPaise);
    tally.daysToOffer.push(Math.max(0, daysBetween(batch.batchEndDate, placement.offerDate)));
  }
  return tally;
}

/** A group's row from its batches' tallies: counts and fees summed, medians over the union. */
export function rowOfTallies(tallies: OutcomeTally[]): OutcomeRow {
  let enrolled = 0;
  let graduated = 0;
  let seeking = 0;
  let feesCollectedPaise = 0;
  let feesDuePaise = 0;
  const ctcs: number[] = [];
  const daysToOffer: number[] = [];
  for (const tally of tallies) {
    enrolled += tally.enrolled;
    graduated += tally.graduated;
    seeking += tally.seeking;
    feesCollectedPaise += tally.feesCollectedPaise;
    feesDuePaise += tally.feesDuePaise;
    for (const ctc of tally.ctcs) ctcs.push(ctc);
    for (const days of tally.daysToOffer) daysToOffer.push(days);
  }
  return {
    enrolled,
    graduated,
    seeking,
    placedWithin180Days: ctcs.length,
    placementRate: { numerator: ctcs.length, denominator: seeking, percent: percentOf(ctcs.length, seeking) },
    medianCtcPaise: median(ctcs),
    highestCtcPaise: ctcs.reduce<number | null>(
      (highest, ctc) => (highest === null || ctc > highest ? ctc : highest),
      null,
    ),
    medianDaysToOffer: median(daysToOffer),
    feesCollectedPaise,
    feesDuePaise,
  };
}

/** A course's row (or any group's): the union of its batches' learners. */
export function combineOutcomes(batches: OutcomeBatch[]): OutcomeRow {
  return rowOfTallies(batches.map(tallyOutcomes));
}

/** One batch's row. */
export function outcomeRow(
  batchEndDate: string,
  learners: OutcomeLearner[],
  fees: { collectedPaise: number; duePaise: number },
): OutcomeRow {
  return combineOutcomes([{ batchEndDate, learners, fees }]);
}

/** Printed under the table, on the staff report and the public page alike. */
export const outcomeDefinitions: { term: string; definition: string }[] = [
  { term: "Enrolled", definition: "Learners enrolled in the batch, whatever happened next." },
  {
    term: "Graduated",
    definition: "Enrolled learners who completed the course. Dropouts and learners still studying are not counted.",
  },
  {
    term: "Seeking a job",
    definition:
      "Graduates who said at graduation that they were looking for a job. Only they count towards the placement rate.",
  },
  {
    term: "Placed within 180 days",
    definition:
      "Graduates seeking a job whose offer was verified by the institute and accepted, with a joining date no more than 180 days after the batch's end date.",
  },
  {
    term: "Placement rate",
    definition:
      "Placed within 180 days divided by graduates seeking a job, both numbers shown, to one decimal place. Shown as a dash when no graduate was seeking a job.",
  },
  {
    term: "Median CTC",
    definition:
      "The middle fixed CTC a year (variable pay excluded) among those placed within 180 days; with an even number, the average of the two middle offers, rounded down. The highest CTC is the largest of them.",
  },
  {
    term: "Median days to offer",
    definition:
      "The middle number of days from the batch's end date to the offer date among those placed within 180 days; an offer made before the end date counts as 0 days. With an even number, the average of the two middle values, rounded down.",
  },
  {
    term: "Fees collected vs due",
    definition:
      "Pay-after-placement fees, with GST, received so far against the fees falling due under verified placements so far.",
  },
];

/** Only batches that graduated at least 180 days ago are shown on the public page. */
export function isPublishable(batchEndDate: string, today: string): boolean {
  return daysBetween(batchEndDate, today) >= placementDays;
}
