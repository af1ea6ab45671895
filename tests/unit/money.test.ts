import { describe, expect, it } from "vitest";
import { formatRupees, parseRupees } from "~/core/money";
import { payWords } from "~/documents/words";

describe("formatRupees", () => {
  it("writes paise as rupees with Indian grouping, paise only when there are some", () => {
    expect(formatRupees(1_23_456_50)).toBe("₹1,23,456.50");
    expect(formatRupees(1_00_00_000_00)).toBe("₹1,00,00,000");
    expect(formatRupees(3_50_000_00)).toBe("₹3,50,000");
    expect(formatRupees(1_15_500_00)).toBe("₹1,15,500");
    expect(formatRupees(12_499_00)).toBe("₹12,499");
    expect(formatRupees(999_00)).toBe("₹999");
    expect(formatRupees(1_000_00)).toBe("₹1,000");
    expect(formatRupees(1_00_000_00)).toBe("₹1,00,000");
    expect(formatRupees(1_23_45_678_00)).toBe("₹1,23,45,678");
    expect(formatRupees(1_234_50)).toBe("₹1,234.50");
    expect(formatRupees(100)).toBe("₹1");
    expect(formatRupees(5)).toBe("₹0.05");
    expect(formatRupees(0)).toBe("₹0");
    expect(formatRupees(-150)).toBe("-₹1.50");
    expect(formatRupees(-2_500_00)).toBe("-₹2,500");
  });

  it("agrees with the en-IN number format for whole rupees", () => {
    for (const rupees of [1, 12, 123, 1234, 12345, 123456, 1234567, 98765432, 115500]) {
      expect(formatRupees(rupees * 100)).toBe(`₹${new Intl.NumberFormat("en-IN").format(rupees)}`);
    }
  });

  it("refuses what is not a whole number of paise", () => {
    expect(() => formatRupees(1.5)).toThrow(RangeError);
    expect(() => formatRupees(Number.NaN)).toThrow(RangeError);
    expect(() => formatRupees(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatRupees(2 ** 53)).toThrow(RangeError);
  });

  it("is what an offer letter's pay says", () => {
    expect(payWords({ kind: "stipend", amountPaise: 25_000_00, period: "month" })).toBe("₹25,000 per month");
    expect(payWords({ kind: "ctc", amountPaise: 6_00_000_50, period: "year" })).toBe("₹6,00,000.50 per year");
  });
});

describe("parseRupees", () => {
  const limits = { maxPaise: 1_00_00_000_00 };

  it("reads rupees as typed, with Indian or Western commas, spaces and a ₹ sign, into paise", () => {
    expect(parseRupees("600000", limits)).toBe(6_00_000_00);
    expect(parseRupees("6,00,000.50", limits)).toBe(6_00_000_50);
    expect(parseRupees("₹ 6,00,000", limits)).toBe(6_00_000_00);
    expect(parseRupees("600,000.5", limits)).toBe(6_00_000_50);
    expect(parseRupees("0.05", limits)).toBe(5);
    expect(parseRupees("0", limits)).toBe(0);
    // Never through a float: 0.1 + 0.2 of a rupee would not be 30 paise.
    expect(parseRupees("19.99", limits)).toBe(1999);
  });

  it("refuses what is not an amount", () => {
    for (const typed of ["", "abc", "1.234", "-5", "1e5", "12.", ".5", "1 000 rupees", "₹"]) {
      expect(parseRupees(typed, limits), typed).toBeNull();
    }
  });

  it("keeps to its limits: the range, 12 digits of rupees, 40 characters as typed", () => {
    expect(parseRupees("1,00,00,000", limits)).toBe(1_00_00_000_00);
    expect(parseRupees("1,00,00,000.01", limits)).toBeNull();
    expect(parseRupees("0", { maxPaise: 100, minPaise: 1 })).toBeNull();
    expect(parseRupees("0.01", { maxPaise: 100, minPaise: 1 })).toBe(1);
    expect(parseRupees("999999999999", { maxPaise: Number.MAX_SAFE_INTEGER })).toBe(99_99_99_99_99_99_00);
    expect(parseRupees("1000000000000", { maxPaise: Number.MAX_SAFE_INTEGER })).toBeNull();
    expect(parseRupees(`${" ".repeat(36)}10000`, limits)).toBeNull();
    expect(parseRupees(`${" ".repeat(35)}10000`, limits)).toBe(10_000_00);
  });
});
