import { describe, expect, it } from "vitest";
import {
  addMonths,
  daysBetween,
  decideFees,
  feeLimits,
  instalmentState,
  validateFeeTerms,
  type FeeTerms,
} from "~/placement/fees";

// ₹3,50,000 threshold, 15 % of fixed CTC capped at ₹1,00,000, 7 instalments, 12-month window, 18 % GST.
const terms: FeeTerms = {
  ctcThresholdPaise: 3_50_000_00,
  fee: { kind: "percent", basisPoints: 1500 },
  capPaise: 1_00_000_00,
  instalments: 7,
  placementWindowMonths: 12,
  gstBasisPoints: 1800,
};
const batchEnd = "2026-01-31";

function owed(decision: ReturnType<typeof decideFees>) {
  if (!decision.owed) throw new Error(`Expected a fee, got: ${decision.explanation}`);
  return decision;
}

describe("the CTC threshold", () => {
  it("owes when the fixed CTC equals the threshold, and above it", () => {
    // 3,50,000.00 × 15 % = 52,500.00 → 5250000 paise.
    expect(owed(decideFees(terms, { fixedCtcPaise: 3_50_000_00, joiningDate: "2026-03-01" }, batchEnd)).feePaise).toBe(
      52_500_00,
    );
    expect(owed(decideFees(terms, { fixedCtcPaise: 3_50_000_01, joiningDate: "2026-03-01" }, batchEnd)).feePaise).toBe(
      52_500_00, // 35000001 × 1500 / 10000 = 5250000.15 → floor 5250000
    );
  });

  it("owes nothing a paisa below the threshold, and says why in rupees", () => {
    expect(decideFees(terms, { fixedCtcPaise: 3_49_999_99, joiningDate: "2026-03-01" }, batchEnd)).toEqual({
      owed: false,
      reason: "below-threshold",
      explanation:
        "Nothing is owed: the offer's fixed CTC of ₹3,49,999.99 a year is below the agreement's threshold of ₹3,50,000.",
    });
    expect(decideFees(terms, { fixedCtcPaise: 3_00_000_00, joiningDate: "2026-03-01" }, batchEnd)).toMatchObject({
      explanation:
        "Nothing is owed: the offer's fixed CTC of ₹3,00,000 a year is below the agreement's threshold of ₹3,50,000.",
    });
  });
});

describe("the fee, GST and instalments", () => {
  it("takes the percentage without the cap, splitting remainders onto the first instalments", () => {
    // ₹4,50,000 × 15 % = 4500000000 × 1500 / 10000 = 6750000 paise (₹67,500), under the ₹1,00,000 cap.
    // GST: 6750000 × 1800 / 10000 = 1215000. Total 7965000.
    // Fee / 7: 964285 rem 5 → #1–5 get 964286, #6–7 get 964285.
    // GST / 7: 173571 rem 3 → #1–3 get 173572, #4–7 get 173571.
    const decision = owed(decideFees(terms, { fixedCtcPaise: 4_50_000_00, joiningDate: "2026-03-01" }, batchEnd));
    expect(decision).toMatchObject({ feePaise: 6_750_000, gstPaise: 1_215_000, totalPaise: 7_965_000 });
    expect(decision.instalments.map((i) => [i.number, i.feePaise, i.gstPaise, i.totalPaise])).toEqual([
      [1, 964_286, 173_572, 1_137_858],
      [2, 964_286, 173_572, 1_137_858],
      [3, 964_286, 173_572, 1_137_858],
      [4, 964_286, 173_571, 1_137_857],
      [5, 964_286, 173_571, 1_137_857],
      [6, 964_285, 173_571, 1_137_856],
      [7, 964_285, 173_571, 1_137_856],
    ]);
    // 3 × 1137858 + 2 × 1137857 + 2 × 1137856 = 3413574 + 2275714 + 2275712 = 7965000.
    expect(decision.instalments.reduce((sum, i) => sum + i.totalPaise, 0)).toBe(7_965_000);
  });

  it("caps the fee before GST", () => {
    // ₹12,00,000 × 15 % = ₹1,80,000 > cap ₹1,00,000 → fee 10000000, GST 18 % = 1800000, total 11800000.
    const decision = owed(
      decideFees({ ...terms, instalments: 4 }, { fixedCtcPaise: 12_00_000_00, joiningDate: "2026-03-01" }, batchEnd),
    );
    expect(decision).toMatchObject({ feePaise: 1_00_000_00, gstPaise: 18_000_00, totalPaise: 1_18_000_00 });
    expect(decision.instalments.map((i) => i.totalPaise)).toEqual([29_500_00, 29_500_00, 29_500_00, 29_500_00]);
    // Exactly at the cap: ₹6,66,666.67 × 15 % = 66666667 × 1500 / 10000 = 10000000.05 → 10000000 = the cap.
    expect(owed(decideFees(terms, { fixedCtcPaise: 6_66_666_67, joiningDate: "2026-03-01" }, batchEnd)).feePaise).toBe(
      1_00_000_00,
    );
  });

  it("floors the percentage to the paisa", () => {
    // 33333333 × 1250 / 10000 = 4166666.625 → 4166666; GST 4166666 × 1800 / 10000 = 749999.88 → 750000.
    const decision = owed(
      decideFees(
        { ...terms, ctcThresholdPaise: 0, fee: { kind: "percent", basisPoints: 1250 }, capPaise: null, instalments: 1 },
        { fixedCtcPaise: 3_33_333_33, joiningDate: "2026-03-01" },
        batchEnd,
      ),
    );
    expect(decision).toMatchObject({ feePaise: 4_166_666, gstPaise: 750_000, totalPaise: 4_916_666 });
  });

  it("charges a fixed fee whatever the CTC above the threshold", () => {
    // ₹60,000 fixed: GST 6000000 × 18 % = 1080000; 3 instalments of 2000000 + 360000 = 2360000.
    const fixed: FeeTerms = {
      ...terms,
      fee: { kind: "fixed", amountPaise: 60_000_00 },
      capPaise: null,
      instalments: 3,
    };
    for (const fixedCtcPaise of [3_50_000_00, 20_00_000_00]) {
      const decision = owed(decideFees(fixed, { fixedCtcPaise, joiningDate: "2026-03-01" }, batchEnd));
      expect(decision).toMatchObject({ feePaise: 60_000_00, gstPaise: 10_800_00, totalPaise: 70_800_00 });
      expect(decision.instalments.map((i) => i.totalPaise)).toEqual([23_600_00, 23_600_00, 23_600_00]);
    }
  });

  it("rounds GST half up to the paisa", () => {
    const gst = (amountPaise: number) =>
      owed(
        decideFees(
          { ...terms, fee: { kind: "fixed", amountPaise }, capPaise: null, instalments: 1 },
          { fixedCtcPaise: 5_00_000_00, joiningDate: "2026-03-01" },
          batchEnd,
        ),
      ).gstPaise;
    expect(gst(25)).toBe(5); // 25 × 0.18 = 4.5 → 5 (half up, not to even)
    expect(gst(75)).toBe(14); // 13.5 → 14
    expect(gst(30)).toBe(5); // 5.4 → 5
    expect(gst(2_500_025)).toBe(450_005); // 450004.5 → 450005
    expect(gst(2_500_030)).toBe(450_005); // 450005.4 → 450005
    expect(gst(2_500_020)).toBe(450_004); // 450003.6 → 450004
  });

  it("splits any fee over 1 to 36 instalments into parts that sum exactly, largest first", () => {
    for (const amountPaise of [1, 35, 99_999, 6_750_000, 9_999_999, 1_00_00_000_00]) {
      for (let instalments = 1; instalments <= 36; instalments++) {
        const decision = owed(
          decideFees(
            { ...terms, fee: { kind: "fixed", amountPaise }, capPaise: null, instalments },
            { fixedCtcPaise: 5_00_000_00, joiningDate: "2026-03-01" },
            batchEnd,
          ),
        );
        const parts = decision.instalments;
        expect(parts).toHaveLength(instalments);
        expect(parts.reduce((sum, i) => sum + i.feePaise, 0)).toBe(decision.feePaise);
        expect(parts.reduce((sum, i) => sum + i.gstPaise, 0)).toBe(decision.gstPaise);
        expect(parts.reduce((sum, i) => sum + i.totalPaise, 0)).toBe(decision.totalPaise);
        for (const [index, part] of parts.entries()) {
          expect(part.totalPaise).toBe(part.feePaise + part.gstPaise);
          expect(part.feePaise - (parts.at(-1)?.feePaise ?? 0)).toBeGreaterThanOrEqual(0);
          expect(part.feePaise - (parts.at(-1)?.feePaise ?? 0)).toBeLessThanOrEqual(1);
          if (index > 0) expect(part.feePaise).toBeLessThanOrEqual(parts[index - 1]?.feePaise ?? 0);
        }
      }
    }
  });
});

describe("due dates", () => {
  const schedule = (joiningDate: string, instalments: number) =>
    owed(
      decideFees(
        { ...terms, instalments, placementWindowMonths: 60 },
        { fixedCtcPaise: 5_00_000_00, joiningDate },
        batchEnd,
      ),
    ).instalments.map((i) => i.dueDate);

  it("falls due monthly from one month after joining, clamped to the month's end and counted from the joining date", () => {
    // Jan 31: Feb has 28 days in 2027; March and May have 31 again, April 30.
    expect(schedule("2027-01-31", 4)).toEqual(["2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31"]);
    expect(schedule("2027-11-15", 3)).toEqual(["2027-12-15", "2028-01-15", "2028-02-15"]);
  });

  it("knows leap years", () => {
    expect(schedule("2027-12-31", 3)).toEqual(["2028-01-31", "2028-02-29", "2028-03-31"]);
    expect(schedule("2028-01-30", 1)).toEqual(["2028-02-29"]);
    expect(addMonths("2028-02-29", 12)).toBe("2029-02-28");
    expect(addMonths("2099-12-31", 2)).toBe("2100-02-28"); // 2100 is not a leap year
    expect(addMonths("2099-12-31", 14)).toBe("2101-02-28");
  });

  it("counts days across months and years, and refuses impossible dates", () => {
    expect(daysBetween("2026-01-31", "2026-07-30")).toBe(180);
    expect(daysBetween("2028-02-28", "2028-03-01")).toBe(2);
    expect(daysBetween("2026-03-01", "2026-02-28")).toBe(-1);
    expect(() => daysBetween("2027-02-29", "2027-03-01")).toThrow(RangeError);
    expect(() => addMonths("2026-13-01", 1)).toThrow(RangeError);
    expect(() => addMonths("26-1-1", 1)).toThrow(RangeError);
  });
});

describe("the placement window", () => {
  it("owes on the window's last day and not the day after (end of month clamped)", () => {
    // 2025-08-31 + 6 months = Feb 31 → clamped to 2026-02-28.
    const window: FeeTerms = { ...terms, placementWindowMonths: 6 };
    const offer = (joiningDate: string) => ({ fixedCtcPaise: 5_00_000_00, joiningDate });
    expect(decideFees(window, offer("2026-02-28"), "2025-08-31").owed).toBe(true);
    expect(decideFees(window, offer("2026-03-01"), "2025-08-31")).toEqual({
      owed: false,
      reason: "outside-window",
      explanation:
        "Nothing is owed: the joining date, 1 March 2026, is after the placement window, which ended on 28 February 2026 (6 months after the batch ended).",
    });
    // In a leap year the window runs to Feb 29.
    expect(decideFees(window, offer("2028-02-29"), "2027-08-31").owed).toBe(true);
    expect(decideFees(window, offer("2028-03-01"), "2027-08-31").owed).toBe(false);
  });

  it("owes for a joining date before the batch ends, and reports the window first when both fail", () => {
    expect(decideFees(terms, { fixedCtcPaise: 5_00_000_00, joiningDate: "2026-01-05" }, batchEnd).owed).toBe(true);
    expect(
      decideFees(
        { ...terms, placementWindowMonths: 1 },
        { fixedCtcPaise: 1_00_000_00, joiningDate: "2026-03-01" },
        batchEnd,
      ),
    ).toMatchObject({
      reason: "outside-window",
      explanation: expect.stringContaining("(1 month after the batch ended)"),
    });
  });

  it("refuses an offer that is not a whole, non-negative number of paise", () => {
    for (const fixedCtcPaise of [-1, 1.5, Number.NaN, feeLimits.maxCtcPaise + 1]) {
      expect(() => decideFees(terms, { fixedCtcPaise, joiningDate: "2026-03-01" }, batchEnd)).toThrow(RangeError);
    }
    expect(() => decideFees(terms, { fixedCtcPaise: 1, joiningDate: "2026-02-30" }, batchEnd)).toThrow(RangeError);
  });
});

describe("validating fee terms", () => {
  const valid = {
    ctcThresholdPaise: 3_50_000_00,
    fee: { kind: "percent", basisPoints: 1500 },
    capPaise: null,
    instalments: 12,
    placementWindowMonths: 12,
  };

  it("accepts good terms and fills in 18 % GST", () => {
    expect(validateFeeTerms(valid)).toEqual({ ok: true, terms: { ...valid, gstBasisPoints: 1800 } });
    const fixed = { ...valid, fee: { kind: "fixed", amountPaise: 1_00_00_000_00 }, capPaise: 1, gstBasisPoints: 0 };
    expect(validateFeeTerms(fixed)).toEqual({ ok: true, terms: fixed });
  });

  it("says what is wrong in plain words", () => {
    const cases: [unknown, string][] = [
      [null, "The fee terms must be an object."],
      [{ ...valid, ctcThresholdPaise: -1 }, "The CTC threshold cannot be negative."],
      [{ ...valid, ctcThresholdPaise: "350000" }, "The CTC threshold must be a number of paise."],
      [{ ...valid, ctcThresholdPaise: 1_00_00_000_01 }, "The CTC threshold can be at most ₹1,00,00,000."],
      [{ ...valid, fee: { kind: "fixed", amountPaise: 0 } }, "The fixed fee must be more than ₹0."],
      [{ ...valid, fee: { kind: "fixed", amountPaise: 1.5 } }, "The fixed fee must be a whole number of paise."],
      [
        { ...valid, fee: { kind: "percent", basisPoints: 10_001 } },
        "The fee percentage can be at most 100 % (10000 basis points).",
      ],
      [{ ...valid, fee: { kind: "percent", basisPoints: 0 } }, "The fee percentage must be more than 0 %."],
      [
        { ...valid, fee: { kind: "share", basisPoints: 100 } },
        "The fee must be a fixed amount or a percentage of the fixed CTC.",
      ],
      [{ ...valid, capPaise: 0 }, "The cap must be more than ₹0."],
      [{ ...valid, capPaise: Number.POSITIVE_INFINITY }, "The cap must be a number of paise."],
      [{ ...valid, instalments: 0 }, "There must be at least 1 instalment."],
      [{ ...valid, instalments: 37 }, "There can be at most 36 instalments."],
      [{ ...valid, instalments: 2.5 }, "The number of instalments must be a whole number."],
      [{ ...valid, instalments: undefined }, "The number of instalments must be a number."],
      [{ ...valid, placementWindowMonths: 0 }, "The placement window must be at least 1 month."],
      [{ ...valid, placementWindowMonths: 61 }, "The placement window can be at most 60 months."],
      [{ ...valid, gstBasisPoints: -1 }, "The GST rate cannot be negative."],
    ];
    for (const [input, message] of cases) expect(validateFeeTerms(input)).toEqual({ ok: false, message });
  });
});

describe("instalment states", () => {
  const instalment = { dueDate: "2027-03-15", totalPaise: 10_000_00 };
  const state = (today: string, paid = 0, pause: { until: string } | null = null, waived = false) =>
    instalmentState(instalment, paid, today, pause, waived);

  it("is upcoming, then due within 30 days (the due date included), then overdue the day after", () => {
    expect(state("2027-01-01")).toBe("upcoming");
    expect(state("2027-02-12")).toBe("upcoming"); // 16 days to Feb 28 + 15 = 31 days left
    expect(state("2027-02-13")).toBe("due"); // 30 days left
    expect(state("2027-03-15")).toBe("due");
    expect(state("2027-03-16")).toBe("overdue");
  });

  it("is paid only when the whole total is paid; a part payment stays due or overdue", () => {
    expect(state("2027-03-16", 10_000_00)).toBe("paid");
    expect(state("2027-03-16", 10_000_01)).toBe("paid");
    expect(state("2027-03-16", 9_999_99)).toBe("overdue");
    expect(state("2027-03-01", 5_000_00)).toBe("due");
    expect(() => state("2027-03-01", -1)).toThrow(RangeError);
  });

  it("is waived when waived, unless it was already paid", () => {
    expect(state("2027-04-01", 0, null, true)).toBe("waived");
    expect(state("2027-04-01", 10_000_00, null, true)).toBe("paid");
  });

  it("is paused to the pause's last day, overdue again after it, and upcoming when it falls due after the pause", () => {
    const pause = { until: "2027-04-30" };
    expect(state("2027-03-20", 0, pause)).toBe("paused");
    expect(state("2027-04-30", 0, pause)).toBe("paused");
    expect(state("2027-05-01", 0, pause)).toBe("overdue");
    expect(state("2027-03-20", 0, pause, true)).toBe("waived");
    expect(state("2027-03-05", 0, { until: "2027-03-10" })).toBe("due");
  });
});
