// Money is integer paise everywhere: stored, computed, passed. Rupees exist only as typed by a
// person (parseRupees) and as shown to one (formatRupees); neither goes through a float.

/** A money column as a number of paise (PostgreSQL's bigint arrives as a string; null is none). */
export const paise = (value: number | string | null): number => (value === null ? 0 : Number(value));

/**
 * Paise as rupees with Indian digit grouping: 12345650 → "₹1,23,456.50", 11550000 → "₹1,15,500";
 * whole rupees without ".00".
 */
export function formatRupees(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`Not a whole number of paise: ${paise}`);
  const sign = paise < 0 ? "-" : "";
  const magnitude = Math.abs(paise);
  const fraction = magnitude % 100;
  const whole = String((magnitude - fraction) / 100);
  // The last three digits form one group; every group before them has two digits.
  const lastThree = whole.slice(-3);
  const rest = whole.slice(0, -3);
  const grouped = rest ? `${rest.replace(/\B(?=(\d{2})+(?!\d))/g, ",")},${lastThree}` : lastThree;
  return `${sign}₹${grouped}${fraction ? `.${String(fraction).padStart(2, "0")}` : ""}`;
}

/** The longest amount accepted as typed, checked before anything else reads it. */
export const maxTypedRupees = 40;

/**
 * Rupees as typed ("600000", "6,00,000.50", "₹ 6,00,000") as integer paise, by string
 * arithmetic. Null when it isn't an amount or is outside `minPaise`…`maxPaise`.
 */
export function parseRupees(typed: string, limits: { maxPaise: number; minPaise?: number }): number | null {
  if (typed.length > maxTypedRupees) return null;
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(typed.replace(/[\s,₹]/g, ""));
  if (!match) return null;
  const paise = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(paise) && paise >= (limits.minPaise ?? 0) && paise <= limits.maxPaise ? paise : null;
}
