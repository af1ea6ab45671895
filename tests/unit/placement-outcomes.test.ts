import { describe, expect, it } from "vitest";
import {
  combineOutcomes,
  isPublishable,
  outcomeDefinitions,
  outcomeRow,
  type OutcomeBatch,
  type OutcomeLearner,
} from "~/placement/outcomes";

const graduate = (placement: OutcomeLearner["placement"], seekingAtGraduation = true): OutcomeLearner => ({
  graduation: "graduated",
  seekingAtGraduation,
  placement,
});

// Batch 1 ends 2026-01-31. Days from it: Feb 28 = 28, Mar 1 = 29, Jun 30 = 150, Jul 30 = 180, Jul 31 = 181.
const january: OutcomeBatch = {
  batchEndDate: "2026-01-31",
  learners: [
    // A: offer day 10, joins day 29.
    graduate({ offerDate: "2026-02-10", joiningDate: "2026-03-01", fixedCtcPaise: 4_00_000_00 }),
    // B: offer before graduation → 0 days; joins day 15.
    graduate({ offerDate: "2026-01-20", joiningDate: "2026-02-15", fixedCtcPaise: 6_00_000_00 }),
    // C: joins on day 181 → not placed within 180 days (still seeking, in the denominator).
    graduate({ offerDate: "2026-07-01", joiningDate: "2026-07-31", fixedCtcPaise: 9_50_000_00 }),
    // D: joins on day 180 → placed; offer day 150.
    graduate({ offerDate: "2026-06-30", joiningDate: "2026-07-30", fixedCtcPaise: 3_50_000_00 }),
    // E: seeking, no offer.
    graduate(null),
    // F: not seeking at graduation, though placed → in no rate.
    graduate({ offerDate: "2026-02-01", joiningDate: "2026-03-01", fixedCtcPaise: 20_00_000_00 }, false),
    // G: dropped out, placed → not counted.
    {
      graduation: "dropped-out",
      seekingAtGraduation: true,
      placement: { offerDate: "2026-02-01", joiningDate: "2026-02-10", fixedCtcPaise: 15_00_000_00 },
    },
    // H: still in progress.
    { graduation: "in-progress", seekingAtGraduation: true, placement: null },
  ],
  fees: { collectedPaise: 1_00_000_00, duePaise: 2_36_000_00 },
};

// Batch 2 ends 2026-06-30. Days from it: Jul 7 = 7, Jul 10 = 10, Aug 1 = 32, Dec 20 = 173
// (Jul 31, Aug 31, Sep 30, Oct 31, Nov 30 = 153, + 20). From batch 1's end Dec 20 would be day 323.
const june: OutcomeBatch = {
  batchEndDate: "2026-06-30",
  learners: [
    graduate({ offerDate: "2026-07-07", joiningDate: "2026-08-01", fixedCtcPaise: 4_50_000_01 }), // P
    graduate({ offerDate: "2026-07-10", joiningDate: "2026-12-20", fixedCtcPaise: 5_00_000_00 }), // Q
    graduate(null), // R
  ],
  fees: { collectedPaise: 50_000_00, duePaise: 50_000_00 },
};

describe("a batch's outcome row", () => {
  it("counts graduates seeking a job, placed within 180 days, with an odd median", () => {
    // Enrolled 8 (A–H); graduated 6 (A–F); seeking 5 (A–E); placed 3 (A, B, D): 3/5 = 60 %.
    // CTCs 3,50,000 / 4,00,000 / 6,00,000 → median ₹4,00,000, highest ₹6,00,000.
    // Days to offer 0 (B), 10 (A), 150 (D) → median 10.
    expect(outcomeRow(january.batchEndDate, january.learners, january.fees)).toEqual({
      enrolled: 8,
      graduated: 6,
      seeking: 5,
      placedWithin180Days: 3,
      placementRate: { numerator: 3, denominator: 5, percent: 60 },
      medianCtcPaise: 4_00_000_00,
      highestCtcPaise: 6_00_000_00,
      medianDaysToOffer: 10,
      feesCollectedPaise: 1_00_000_00,
      feesDuePaise: 2_36_000_00,
    });
  });

  it("takes the mean of the two middle values, rounded down, for an even count", () => {
    // Placed P and Q of 3 seeking: 2/3 = 66.66… → 66.7.
    // CTC (45000001 + 50000000) / 2 = 47500000.5 → 47500000. Days (7 + 10) / 2 = 8.5 → 8.
    expect(outcomeRow(june.batchEndDate, june.learners, june.fees)).toMatchObject({
      seeking: 3,
      placedWithin180Days: 2,
      placementRate: { numerator: 2, denominator: 3, percent: 66.7 },
      medianCtcPaise: 4_75_000_00,
      highestCtcPaise: 5_00_000_00,
      medianDaysToOffer: 8,
    });
  });

  it("gives no rate or medians when no graduate was seeking a job", () => {
    const none = { collectedPaise: 0, duePaise: 0 };
    const row = outcomeRow(
      "2026-01-31",
      [graduate(null, false), { ...graduate(null), graduation: "dropped-out" }],
      none,
    );
    expect(row).toEqual({
      enrolled: 2,
      graduated: 1,
      seeking: 0,
      placedWithin180Days: 0,
      placementRate: { numerator: 0, denominator: 0, percent: null },
      medianCtcPaise: null,
      highestCtcPaise: null,
      medianDaysToOffer: null,
      feesCollectedPaise: 0,
      feesDuePaise: 0,
    });
    expect(outcomeRow("2026-01-31", [], none).placementRate.percent).toBeNull();
    // Seeking but none placed is a real 0 %.
    expect(outcomeRow("2026-01-31", [graduate(null)], none).placementRate).toEqual({
      numerator: 0,
      denominator: 1,
      percent: 0,
    });
  });

  it("rounds the percentage half up to one decimal", () => {
    const placed = graduate({ offerDate: "2026-02-01", joiningDate: "2026-02-01", fixedCtcPaise: 1 });
    const rate = (placedCount: number, seeking: number) =>
      outcomeRow(
        "2026-01-31",
        [
          ...Array<OutcomeLearner>(placedCount).fill(placed),
          ...Array<OutcomeLearner>(seeking - placedCount).fill(graduate(null)),
        ],
        { collectedPaise: 0, duePaise: 0 },
      ).placementRate.percent;
    expect(rate(1, 16)).toBe(6.3); // 6.25 → 6.3
    expect(rate(1, 3)).toBe(33.3); // 33.33…
    expect(rate(1, 8)).toBe(12.5);
    expect(rate(7, 7)).toBe(100);
  });
});

describe("a course's row from several batches", () => {
  it("pools the learners, each measured from their own batch's end, and never averages medians", () => {
    // Enrolled 8 + 3; graduated 6 + 3; seeking 5 + 3; placed 3 + 2 = 5 (Q's day 173 counts from June's end).
    // 5/8 = 62.5 %. CTCs 3,50,000 / 4,00,000 / 4,50,000.01 / 5,00,000 / 6,00,000 → median ₹4,50,000.01
    // (the average of the batch medians would be 4,37,500). Days 0, 7, 10, 10, 150 → median 10.
    expect(combineOutcomes([january, june])).toEqual({
      enrolled: 11,
      graduated: 9,
      seeking: 8,
      placedWithin180Days: 5,
      placementRate: { numerator: 5, denominator: 8, percent: 62.5 },
      medianCtcPaise: 4_50_000_01,
      highestCtcPaise: 6_00_000_00,
      medianDaysToOffer: 10,
      feesCollectedPaise: 1_50_000_00,
      feesDuePaise: 2_86_000_00,
    });
    expect(combineOutcomes([])).toMatchObject({ enrolled: 0, placementRate: { percent: null } });
  });
});

describe("publishing", () => {
  it("shows a batch publicly from the 180th day after it ended", () => {
    expect(isPublishable("2026-01-31", "2026-07-29")).toBe(false);
    expect(isPublishable("2026-01-31", "2026-07-30")).toBe(true);
    expect(isPublishable("2026-01-31", "2027-01-01")).toBe(true);
    expect(isPublishable("2026-01-31", "2025-12-01")).toBe(false);
  });

  it("defines every column in plain words", () => {
    expect(outcomeDefinitions.map((d) => d.term)).toEqual([
      "Enrolled",
      "Graduated",
      "Seeking a job",
      "Placed within 180 days",
      "Placement rate",
      "Median CTC",
      "Median days to offer",
      "Fees collected vs due",
    ]);
    for (const { definition } of outcomeDefinitions) expect(definition.length).toBeGreaterThan(40);
  });
});
