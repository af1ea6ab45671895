/** The calendar date (y, m, d) of an instant in a time zone, as a day count since the epoch. */
function dayIndex(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(instant)
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / 86_400_000;
}

/**
 * Day N of the learner dashboard: whole calendar days since sign-up plus 1, counted in the
 * institute's time zone, so the sign-up day is day 1 and each local midnight adds one.
 */
export function dayNumber(createdAt: Date, now: Date, timeZone: string): number {
  return Math.max(1, dayIndex(now, timeZone) - dayIndex(createdAt, timeZone) + 1);
}
