import { formatDay } from "~/core/dates";
import { formatRupees } from "~/core/money";
import type { PayKind, PayPeriod } from "./kinds";

// A document's dates and pay in words, the same on the PDF, in the popups and on staff pages.

/**
 * '2026-11-22' as '22 November 2026'. A document's dates are calendar days, not instants, so
 * they are formatted in UTC, where they were written, and read the same everywhere.
 */
export function formatDocumentDate(date: string): string {
  return formatDay(`${date}T00:00:00Z`, "UTC");
}

/** 2500000 paise a month as '₹25,000 per month'; paise are shown only when there are some. */
export function payWords(pay: { kind: PayKind; amountPaise: number; period: PayPeriod }): string {
  return `${formatRupees(pay.amountPaise)} per ${pay.period}`;
}
