// Built once per zone: constructing a DateTimeFormat costs far more than formatting with one,
// and the dashboard asks for Day N on every request.
const calendarDateFormats = new Map<string, Intl.DateTimeFormat>();

function calendarDateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = calendarDateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    calendarDateFormats.set(timeZone, format);
  }
  return format;
}

const quarterHourMs = 15 * 60_000;
const maxRememberedDays = 10_000;
const rememberedDays = new Map<string, number>();

/**
 * The calendar date (y, m, d) of an instant in a time zone, as a day count since the epoch.
 * Since 1970 every zone's offsets and changes fall on whole quarter hours of UTC, so the date
 * is the same within each UTC quarter hour and is remembered by it (formatToParts was a tenth
 * of a dashboard request's own time).
 */
function dayIndex(instant: Date, timeZone: string): number {
  const key = `${timeZone}|${Math.floor(instant.getTime() / quarterHourMs)}`;
  let index = rememberedDays.get(key);
  if (index === undefined) {
    index = computeDayIndex(instant, timeZone);
    if (rememberedDays.size >= maxRememberedDays) rememberedDays.clear();
    rememberedDays.set(key, index);
  }
  return index;
}

function computeDayIndex(instant: Date, timeZone: string): number {
  const date = { year: 0, month: 0, day: 0 };
  for (const part of calendarDateFormat(timeZone).formatToParts(instant)) {
    if (part.type === "year" || part.type === "month" || part.type === "day") date[part.type] = Number(part.value);
  }
  return Date.UTC(date.year, date.month - 1, date.day) / 86_400_000;
}

/**
 * Day N of the learner dashboard: whole calendar days since sign-up plus 1, counted in the
 * institute's time zone, so the sign-up day is day 1 and each local midnight adds one.
 */
export function dayNumber(createdAt: Date, now: Date, timeZone: string): number {
  return Math.max(1, dayIndex(now, timeZone) - dayIndex(createdAt, timeZone) + 1);
}

/** The calendar date of an instant in a time zone, as 'YYYY-MM-DD' (a document's dates are these). */
export function calendarDate(instant: Date, timeZone: string): string {
  return new Date(dayIndex(instant, timeZone) * 86_400_000).toISOString().slice(0, 10);
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();

/** The hour (0–23) of an instant in a time zone (the digest emails wait for DIGEST_HOUR). */
export function hourIn(instant: Date, timeZone: string): number {
  let format = hourFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" });
    hourFormats.set(timeZone, format);
  }
  return Number(format.format(instant));
}
