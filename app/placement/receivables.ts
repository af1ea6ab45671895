import { addMonths } from "./fees";
import type { TermsSource } from "./terms-source";

// Receivables' buckets and amounts, shared by the server and the fees page.

export const ageingBuckets = [
  { key: "days0to30", label: "0–30 days", upTo: 30 },
  { key: "days31to60", label: "31–60 days", upTo: 60 },
  { key: "days61to90", label: "61–90 days", upTo: 90 },
  { key: "days90plus", label: "Over 90 days", upTo: Number.POSITIVE_INFINITY },
] as const;

export type AgeingKey = (typeof ageingBuckets)[number]["key"];

/** A number of instalments and what is unpaid on them. */
export interface Amount {
  count: number;
  paise: number;
}

export interface Receivables {
  /** Instalments with something unpaid (each counted once). */
  open: number;
  dueThisMonth: Amount;
  overdue: Record<AgeingKey, Amount> & { total: Amount };
  paused: Amount;
}

export interface BatchReceivables extends Receivables {
  id: string;
  name: string;
  course: string;
  /** Where the batch's fee terms come from now (its learners' agreements keep what they were drawn up from). */
  termsSource: TermsSource;
}

/** The last day of today's month. */
export function monthEnd(today: string): string {
  const [year, month] = addMonths(`${today.slice(0, 7)}-01`, 1)
    .split("-")
    .map(Number) as [number, number];
  // Day 0 of next month is this month's last day.
  return new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);
}

/** The bucket of an instalment this many days past its due date (1 or more). */
export function ageingBucket(daysPastDue: number): AgeingKey {
  return (ageingBuckets.find((bucket) => daysPastDue <= bucket.upTo) ?? ageingBuckets[3]).key;
}
