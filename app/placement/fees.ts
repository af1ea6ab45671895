import { z } from "zod";
import { formatRupees } from "~/core/money";
import { formatDocumentDate } from "~/documents/words";

/*
 * Pay-after-placement fee arithmetic, pure. Money is integer paise, rates basis points
 * (1800 = 18 %), dates 'YYYY-MM-DD' calendar dates (no time zones). The rules:
 *
 * - Window: the offer owes only if its joining date is on or before the batch's end date plus
 *   placementWindowMonths months (same day of month, clamped to the month's last day). The
 *   window is checked before the threshold: after it the agreement binds no offer at all.
 * - Threshold: an offer owes when its fixed CTC >= ctcThresholdPaise; variable pay never counts.
 * - Fee: the fixed amount, or floor(fixedCtc × bp / 10000) paise; then min(fee, cap) — the cap
 *   applies before GST, to either kind of fee.
 * - GST: round-half-up(fee × gstBp / 10000) on the whole fee, so the totals are what an invoice
 *   for the whole fee would say.
 * - Instalments: the fee is split into n parts of floor(fee / n), the remainder paise going one
 *   each to the first instalments; GST is split the same way; an instalment's total is its fee
 *   part + its GST part. So the parts sum exactly to the totals (an instalment's GST may differ
 *   by a paisa from 18 % of its own fee part; the sum is what is exact).
 * - Due dates: instalment k falls due k months after the joining date, each counted from the
 *   joining date itself (Jan 31 → Feb 28/29, Mar 31, Apr 30), so a short month does not pull
 *   the later dates earlier.
 *
 * Products are taken in BigInt. With the bounds below they would be exact in a double anyway:
 * CTC ≤ ₹100 crore = 10^11 paise, × 10^4 bp = 10^15 < 2^53 ≈ 9.007 × 10^15.
 */

export interface FeeTerms {
  /** Fixed CTC a year; an offer's fixed CTC below this owes nothing (variable pay never counts). */
  ctcThresholdPaise: number;
  /** A fixed amount, or a percentage of the offer's fixed CTC. */
  fee: { kind: "fixed"; amountPaise: number } | { kind: "percent"; basisPoints: number };
  /** The fee (before GST) never exceeds this. */
  capPaise: number | null;
  /** A whole number, 1 to 36. */
  instalments: number;
  /** Counted from the batch's end date; a joining date after the window owes nothing. */
  placementWindowMonths: number;
  gstBasisPoints: number;
}

export interface FeeOffer {
  fixedCtcPaise: number;
  joiningDate: string;
}

export interface Instalment {
  number: number;
  dueDate: string;
  feePaise: number;
  gstPaise: number;
  totalPaise: number;
}

export type FeeDecision =
  | { owed: false; reason: "below-threshold" | "outside-window"; explanation: string }
  | { owed: true; feePaise: number; gstPaise: number; totalPaise: number; instalments: Instalment[] };

export const feeLimits = {
  /** ₹1 crore: any fee, cap or threshold above it is a typing slip. */
  maxAmountPaise: 1_00_00_000 * 100,
  /** ₹100 crore a year: the largest offer the arithmetic accepts. */
  maxCtcPaise: 100_00_00_000 * 100,
  maxBasisPoints: 10_000,
  maxInstalments: 36,
  maxWindowMonths: 60,
  defaultGstBasisPoints: 1800,
} as const;

// ---- Calendar dates ------------------------------------------------------------------------

const dayMs = 86_400_000;

function parseDate(date: string): { year: number; month: number; day: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) return { year, month, day };
  }
  throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function formatDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The same day of the month `months` later, clamped to that month's last day (Jan 31 + 1 → Feb 28/29). */
export function addMonths(date: string, months: number): string {
  const { year, month, day } = parseDate(date);
  const index = year * 12 + (month - 1) + months;
  const [toYear, toMonth] = [Math.floor(index / 12), (index % 12) + 1];
  return formatDate(toYear, toMonth, Math.min(day, daysInMonth(toYear, toMonth)));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = parseDate(from);
  const b = parseDate(to);
  return (Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / dayMs;
}

function splitEvenly(totalPaise: number, parts: number): number[] {
  const base = Math.floor(totalPaise / parts);
  const remainder = totalPaise - base * parts;
  return Array.from({ length: parts }, (_, index) => base + (index < remainder ? 1 : 0));
}

function feeBeforeGst(terms: FeeTerms, fixedCtcPaise: number): number {
  const fee =
    terms.fee.kind === "fixed"
      ? terms.fee.amountPaise
      : Number((BigInt(fixedCtcPaise) * BigInt(terms.fee.basisPoints)) / 10_000n); // BigInt division floors
  return terms.capPaise === null ? fee : Math.min(fee, terms.capPaise);
}

function gstOn(feePaise: number, gstBasisPoints: number): number {
  // Half-up for non-negative amounts: add half the divisor, then floor.
  return Number((BigInt(feePaise) * BigInt(gstBasisPoints) + 5_000n) / 10_000n);
}

// ---- The decision --------------------------------------------------------------------------

/** What a verified offer owes under an agreement's terms, with the schedule, or why nothing is owed. */
export function decideFees(terms: FeeTerms, offer: FeeOffer, batchEndDate: string): FeeDecision {
  const { fixedCtcPaise, joiningDate } = offer;
  if (!Number.isSafeInteger(fixedCtcPaise) || fixedCtcPaise < 0 || fixedCtcPaise > feeLimits.maxCtcPaise) {
    throw new RangeError(`Not an offer's fixed CTC in paise: ${fixedCtcPaise}`);
  }
  parseDate(joiningDate);

  const windowEnds = addMonths(batchEndDate, terms.placementWindowMonths);
  if (joiningDate > windowEnds) {
    return {
      owed: false,
      reason: "outside-window",
      explanation: `Nothing is owed: the joining date, ${formatDocumentDate(joiningDate)}, is after the placement window, which ended on ${formatDocumentDate(windowEnds)} (${terms.placementWindowMonths} ${terms.placementWindowMonths === 1 ? "month" : "months"} after the batch ended).`,
    };
  }
  if (fixedCtcPaise < terms.ctcThresholdPaise) {
    return {
      owed: false,
      reason: "below-threshold",
      explanation: `Nothing is owed: the offer's fixed CTC of ${formatRupees(fixedCtcPaise)} a year is below the agreement's threshold of ${formatRupees(terms.ctcThresholdPaise)}.`,
    };
  }

  const feePaise = feeBeforeGst(terms, fixedCtcPaise);
  const gstPaise = gstOn(feePaise, terms.gstBasisPoints);
  const feeParts = splitEvenly(feePaise, terms.instalments);
  const gstParts = splitEvenly(gstPaise, terms.instalments);
  const instalments = feeParts.map((part, index) => ({
    number: index + 1,
    dueDate: addMonths(joiningDate, index + 1),
    feePaise: part,
    gstPaise: gstParts[index] ?? 0,
    totalPaise: part + (gstParts[index] ?? 0),
  }));
  return { owed: true, feePaise, gstPaise, totalPaise: feePaise + gstPaise, instalments };
}

// ---- Validation ----------------------------------------------------------------------------

const rupeeCap = formatRupees(feeLimits.maxAmountPaise);

const amount = (what: string, min: number) =>
  z
    .number(`${what} must be a number of paise.`)
    .int(`${what} must be a whole number of paise.`)
    .min(min, min === 0 ? `${what} cannot be negative.` : `${what} must be more than ₹0.`)
    .max(feeLimits.maxAmountPaise, `${what} can be at most ${rupeeCap}.`);

const basisPoints = (what: string, min: number) =>
  z
    .number(`${what} must be a number of basis points.`)
    .int(`${what} must be a whole number of basis points (1800 = 18 %).`)
    .min(min, min === 0 ? `${what} cannot be negative.` : `${what} must be more than 0 %.`)
    .max(feeLimits.maxBasisPoints, `${what} can be at most 100 % (10000 basis points).`);

const feeTermsSchema = z.object(
  {
    ctcThresholdPaise: amount("The CTC threshold", 0),
    fee: z.discriminatedUnion(
      "kind",
      [
        z.object({ kind: z.literal("fixed"), amountPaise: amount("The fixed fee", 1) }),
        z.object({ kind: z.literal("percent"), basisPoints: basisPoints("The fee percentage", 1) }),
      ],
      "The fee must be a fixed amount or a percentage of the fixed CTC.",
    ),
    capPaise: amount("The cap", 1).nullable(),
    instalments: z
      .number("The number of instalments must be a number.")
      .int("The number of instalments must be a whole number.")
      .min(1, "There must be at least 1 instalment.")
      .max(feeLimits.maxInstalments, `There can be at most ${feeLimits.maxInstalments} instalments.`),
    placementWindowMonths: z
      .number("The placement window must be a number of months.")
      .int("The placement window must be a whole number of months.")
      .min(1, "The placement window must be at least 1 month.")
      .max(feeLimits.maxWindowMonths, `The placement window can be at most ${feeLimits.maxWindowMonths} months.`),
    gstBasisPoints: basisPoints("The GST rate", 0).default(feeLimits.defaultGstBasisPoints),
  },
  "The fee terms must be an object.",
);

/** Checks an admin's terms template; the message names the first problem in plain words. */
export function validateFeeTerms(terms: unknown): { ok: true; terms: FeeTerms } | { ok: false; message: string } {
  const parsed = feeTermsSchema.safeParse(terms);
  if (parsed.success) return { ok: true, terms: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? "The fee terms are not valid." };
}

// ---- Instalment state ----------------------------------------------------------------------

export type InstalmentState = "upcoming" | "due" | "overdue" | "paid" | "paused" | "waived";

/** Days before its due date from which an instalment shows as due. */
const dueSoonDays = 30;

/**
 * An instalment's state on a day; overdue is computed here, never stored. In order: paid in
 * full (money received wins), waived, paused (today is on or before the pause's last day and
 * the instalment falls due by then: one due after the pause ends is simply upcoming), overdue
 * (the due date has passed), due (within 30 days, the due date itself included), upcoming.
 * A part payment changes nothing until the whole total is paid.
 */
export function instalmentState(
  instalment: { dueDate: string; totalPaise: number },
  paidPaise: number,
  today: string,
  pause: { until: string } | null,
  waived: boolean,
): InstalmentState {
  if (!Number.isSafeInteger(paidPaise) || paidPaise < 0) throw new RangeError(`Not an amount paid: ${paidPaise}`);
  if (paidPaise >= instalment.totalPaise) return "paid";
  if (waived) return "waived";
  const daysLeft = daysBetween(today, instalment.dueDate);
  if (pause && daysBetween(today, pause.until) >= 0 && instalment.dueDate <= pause.until) return "paused";
  if (daysLeft < 0) return "overdue";
  return daysLeft <= dueSoonDays ? "due" : "upcoming";
}
