import { describe, expect, it } from "vitest";
import { priceTermsDisagreement } from "~/catalogue/price-and-terms";
import { feeTermsLine, mostChargedPaise, percentText } from "~/placement/fee-terms";
import type { FeeTerms } from "~/placement/fees";

// The course card's terms line and the editor's price-against-terms check, worked by hand:
// every amount below is integer paise (₹1 = 100), every rate basis points (1 % = 100).

const terms = (changes: Partial<FeeTerms> = {}): FeeTerms => ({
  ctcThresholdPaise: 3_00_000_00,
  fee: { kind: "percent", basisPoints: 1500 },
  capPaise: 2_00_000_00,
  instalments: 6,
  placementWindowMonths: 12,
  gstBasisPoints: 1800,
  ...changes,
});

describe("percentText", () => {
  it("writes basis points as a percentage without a float", () => {
    expect(percentText(1500)).toBe("15 %");
    expect(percentText(1250)).toBe("12.5 %");
    expect(percentText(1205)).toBe("12.05 %");
    expect(percentText(1)).toBe("0.01 %");
    expect(percentText(10_000)).toBe("100 %");
    // 0.1 + 0.2 is not 0.3 in a double; 30 basis points are "0.3 %".
    expect(percentText(30)).toBe("0.3 %");
  });
});

describe("feeTermsLine", () => {
  it("is the specification's line for 15 % capped at ₹2,00,000", () => {
    expect(feeTermsLine(terms())).toBe("Pay 15 % of your first-year salary after placement, at most ₹2,00,000 + GST");
  });

  it("leaves the cap out when there is none, and groups a large cap the Indian way", () => {
    expect(feeTermsLine(terms({ capPaise: null }))).toBe("Pay 15 % of your first-year salary after placement + GST");
    // ₹12,34,567.50: lakhs and thousands grouped by two, the last three digits together, paise kept.
    expect(feeTermsLine(terms({ capPaise: 12_34_567_50 }))).toBe(
      "Pay 15 % of your first-year salary after placement, at most ₹12,34,567.50 + GST",
    );
  });

  it("writes a fractional percentage as the terms hold it", () => {
    expect(feeTermsLine(terms({ fee: { kind: "percent", basisPoints: 1250 }, capPaise: 1_50_000_00 }))).toBe(
      "Pay 12.5 % of your first-year salary after placement, at most ₹1,50,000 + GST",
    );
    expect(feeTermsLine(terms({ fee: { kind: "percent", basisPoints: 875 }, capPaise: null }))).toBe(
      "Pay 8.75 % of your first-year salary after placement + GST",
    );
  });

  it("writes a fixed fee as the amount charged (capped), and no GST at a rate of 0", () => {
    expect(feeTermsLine(terms({ fee: { kind: "fixed", amountPaise: 60_000_00 }, capPaise: null }))).toBe(
      "Pay ₹60,000 after placement + GST",
    );
    // A cap below the fixed fee is what is charged.
    expect(feeTermsLine(terms({ fee: { kind: "fixed", amountPaise: 60_000_00 }, capPaise: 50_000_00 }))).toBe(
      "Pay ₹50,000 after placement + GST",
    );
    expect(feeTermsLine(terms({ gstBasisPoints: 0 }))).toBe(
      "Pay 15 % of your first-year salary after placement, at most ₹2,00,000",
    );
  });
});

describe("mostChargedPaise", () => {
  it("is the cap of a percentage, the capped fixed fee, or none", () => {
    expect(mostChargedPaise(terms())).toBe(2_00_000_00);
    expect(mostChargedPaise(terms({ capPaise: null }))).toBeNull();
    expect(mostChargedPaise(terms({ fee: { kind: "fixed", amountPaise: 60_000_00 }, capPaise: null }))).toBe(60_000_00);
    expect(mostChargedPaise(terms({ fee: { kind: "fixed", amountPaise: 60_000_00 }, capPaise: 1_00_000_00 }))).toBe(
      60_000_00,
    );
  });
});

describe("priceTermsDisagreement", () => {
  it("agrees when the price is the most the terms charge, or there is no price", () => {
    expect(priceTermsDisagreement({ price: 2_00_000, terms: terms(), papBatches: 3 })).toBeNull();
    expect(priceTermsDisagreement({ price: null, terms: terms({ capPaise: null }), papBatches: 0 })).toBeNull();
    expect(
      priceTermsDisagreement({
        price: 60_000,
        terms: terms({ fee: { kind: "fixed", amountPaise: 60_000_00 }, capPaise: null }),
        papBatches: 0,
      }),
    ).toBeNull();
  });

  it("agrees with no terms while nothing is sold after placement", () => {
    expect(priceTermsDisagreement({ price: 15_500, terms: null, papBatches: 0 })).toBeNull();
  });

  it("says why they disagree", () => {
    expect(priceTermsDisagreement({ price: 15_500, terms: terms(), papBatches: 0 })).toBe(
      "Its card advertises ₹15,500, but its fee terms charge up to ₹2,00,000 before GST.",
    );
    expect(priceTermsDisagreement({ price: 15_500, terms: terms({ capPaise: null }), papBatches: 0 })).toBe(
      "Its card advertises ₹15,500, but its fee terms charge 15 % of the salary with no upper limit.",
    );
    expect(
      priceTermsDisagreement({
        price: 65_000,
        terms: terms({ fee: { kind: "fixed", amountPaise: 60_000_00 }, capPaise: null }),
        papBatches: 0,
      }),
    ).toBe("Its card advertises ₹65,000, but its fee terms charge ₹60,000 before GST.");
    // A cap with paise can't equal a price in whole rupees.
    expect(priceTermsDisagreement({ price: 2_00_000, terms: terms({ capPaise: 2_00_000_50 }), papBatches: 0 })).toBe(
      "Its card advertises ₹2,00,000, but its fee terms charge up to ₹2,00,000.50 before GST.",
    );
    expect(priceTermsDisagreement({ price: 15_500, terms: null, papBatches: 2 })).toBe(
      "It has 2 pay-after-placement batches but no fee terms: its card shows none, while its learners sign the terms their batch names.",
    );
  });
});
