// Dates as the institute sees them: every instant is shown and counted in the institute's time
// zone (INSTITUTE_TZ), never the browser's or the server's, so the server's render and the
// browser's agree. Formatters are built once per zone and options: constructing an
// Intl.DateTimeFormat costs far more than formatting with one (about 8 % of a dashboard request
// when it was done per call).

/** A formatter with these options for each time zone, built on first use. */
function perZone(locale: string, options: Intl.DateTimeFormatOptions): (timeZone: string) => Intl.DateTimeFormat {
  const built = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let format = built.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
      built.set(timeZone, format);
    }
    return format;
  };
}

const dateTimeFormat = perZone("en-IN", { dateStyle: "medium", timeStyle: "short" });
const shortDayFormat = perZone("en-IN", { dateStyle: "medium" });
const dayFormat = perZone("en-IN", { dateStyle: "long" });
const calendarDateFormat = perZone("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" });
const hourFormat = perZone("en-GB", { hour: "2-digit", hourCycle: "h23" });

/** An instant as "22 Nov 2026, 10:15 am" in the time zone. */
export function formatDateTime(iso: string, timeZone: string): string {
  return dateTimeFormat(timeZone).format(new Date(iso));
}

/** An instant's day as "22 Nov 2026" in the time zone. */
export function formatShortDay(iso: string, timeZone: string): string {
  return shortDayFormat(timeZone).format(new Date(iso));
}

/** An instant's day as "22 November 2026" in the time zone, like a document's own dates. */
export function formatDay(iso: string, timeZone: string): string {
  return dayFormat(timeZone).format(new Date(iso));
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

/** The calendar date of an instant in a time zone, as 'YYYY-MM-DD' (a document's dates are these). */
export function calendarDate(instant: Date, timeZone: string): string {
  return new Date(dayIndex(instant, timeZone) * 86_400_000).toISOString().slice(0, 10);
}

/** Today in the institute ('YYYY-MM-DD'): what due dates, expiry and reports are compared with. */
export function todayIn(timeZone: string, now = new Date()): string {
  return calendarDate(now, timeZone);
}

/**
 * Day N of the learner dashboard: whole calendar days since sign-up plus 1, counted in the
 * institute's time zone, so the sign-up day is day 1 and each local midnight adds one.
 */
export function dayNumber(createdAt: Date, now: Date, timeZone: string): number {
  return Math.max(1, dayIndex(now, timeZone) - dayIndex(createdAt, timeZone) + 1);
}

/** The hour (0–23) of an instant in a time zone (the digest emails wait for DIGEST_HOUR). */
export function hourIn(instant: Date, timeZone: string): number {
  return Number(hourFormat(timeZone).format(instant));
}

const wallClockFormat = perZone("en-CA", {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** How far the time zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const wall: Record<string, number> = {};
  for (const part of wallClockFormat(timeZone).formatToParts(new Date(instant))) wall[part.type] = Number(part.value);
  const wallAsUtc = Date.UTC(wall.year!, wall.month! - 1, wall.day!, wall.hour!, wall.minute!, wall.second!);
  return wallAsUtc - (instant - (instant % 1000));
}

/** The instant an instant's day reaches `hour`:00 in the time zone (the day's digest hour). */
export function hourOfDayIn(instant: Date, hour: number, timeZone: string): Date {
  const wallAsUtc = Date.parse(`${calendarDate(instant, timeZone)}T00:00:00Z`) + hour * 3_600_000;
  // The offset at the guess, then again at the result, in case a clock change lies between.
  const guess = wallAsUtc - zoneOffsetMs(wallAsUtc, timeZone);
  return new Date(wallAsUtc - zoneOffsetMs(guess, timeZone));
}

/** The instant a wall-clock time ('YYYY-MM-DD', 'HH:MM') names in the time zone (a due time typed by staff). */
export function wallTimeIn(date: string, time: string, timeZone: string): Date {
  const wallAsUtc = Date.parse(`${date}T${time}:00Z`);
  const guess = wallAsUtc - zoneOffsetMs(wallAsUtc, timeZone);
  return new Date(wallAsUtc - zoneOffsetMs(guess, timeZone));
}
