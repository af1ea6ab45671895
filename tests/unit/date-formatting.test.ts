import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  calendarDate,
  dayNumber,
  formatDateTime,
  formatDay,
  formatShortDay,
  hourIn,
  hourOfDayIn,
  todayIn,
} from "~/core/dates";

/** Counts `new Intl.DateTimeFormat(…)` while the real constructor does the work. */
function countFormatterConstructions() {
  const real = Intl.DateTimeFormat;
  const counter = { count: 0 };
  Intl.DateTimeFormat = new Proxy(real, {
    construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      counter.count++;
      return new target(...args);
    },
  });
  return { counter, restore: () => (Intl.DateTimeFormat = real) };
}

describe("date formatting on the request path", () => {
  let restore = () => {};
  afterEach(() => restore());

  it("builds Day N's formatter once per time zone, not per call", () => {
    const constructions = countFormatterConstructions();
    restore = constructions.restore;
    // A zone no other test here uses, so its formatter is built inside this test.
    const created = new Date("2026-03-01T17:30:00Z");
    for (let hour = 0; hour < 500; hour++) {
      dayNumber(created, new Date(created.getTime() + hour * 3_600_000), "Australia/Eucla");
    }
    expect(constructions.counter.count).toBe(1);
    expect(dayNumber(created, new Date("2026-03-21T17:30:00Z"), "Australia/Eucla")).toBe(21);
    expect(constructions.counter.count).toBe(1);
  });

  it("builds the dashboard's date formatter once per time zone, not per call", () => {
    const constructions = countFormatterConstructions();
    restore = constructions.restore;
    for (let day = 1; day <= 28; day++)
      formatDateTime(`2026-02-${String(day).padStart(2, "0")}T10:00:00Z`, "Asia/Tokyo");
    expect(constructions.counter.count).toBe(1);
  });

  it("counts Day N as calendar days in the zone, whatever the instants", () => {
    const zones = [
      "Asia/Kolkata",
      "UTC",
      "America/St_Johns",
      "Pacific/Kiritimati",
      "Pacific/Pago_Pago",
      "Asia/Kathmandu",
      "Australia/Eucla",
    ];
    const instant = fc.date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2100-01-01T00:00:00Z"),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instant, instant, fc.constantFrom(...zones), (a, b, timeZone) => {
        const [created, now] = a <= b ? [a, b] : [b, a];
        // The reference: each instant's local calendar date, read from a formatter of its own.
        const localDate = (d: Date) => new Date(d.toLocaleDateString("sv-SE", { timeZone }) + "T00:00:00Z");
        const expected = Math.round((localDate(now).getTime() - localDate(created).getTime()) / 86_400_000) + 1;
        expect(dayNumber(created, now, timeZone)).toBe(expected);
        expect(dayNumber(now, created, timeZone)).toBe(1);
      }),
    );
  });
});

describe("the institute's dates", () => {
  // 22 November 2026, 18:45 UTC: already the 23rd in Kolkata (UTC+5:30), still the 22nd in New York.
  const evening = "2026-11-22T18:45:00Z";

  it("shows an instant in the zone it is given, never the machine's", () => {
    expect(formatDateTime(evening, "Asia/Kolkata")).toBe("23 Nov 2026, 12:15 am");
    expect(formatDateTime(evening, "America/New_York")).toBe("22 Nov 2026, 1:45 pm");
    expect(formatShortDay(evening, "Asia/Kolkata")).toBe("23 Nov 2026");
    expect(formatDay(evening, "Asia/Kolkata")).toBe("23 November 2026");
    expect(formatDay(evening, "UTC")).toBe("22 November 2026");
  });

  it("says what day and hour it is in the institute", () => {
    expect(todayIn("Asia/Kolkata", new Date(evening))).toBe("2026-11-23");
    expect(todayIn("America/New_York", new Date(evening))).toBe("2026-11-22");
    expect(calendarDate(new Date("2026-11-22T18:29:59Z"), "Asia/Kolkata")).toBe("2026-11-22");
    expect(calendarDate(new Date("2026-11-22T18:30:00Z"), "Asia/Kolkata")).toBe("2026-11-23");
    expect(hourIn(new Date(evening), "Asia/Kolkata")).toBe(0);
    expect(hourIn(new Date("2026-11-22T12:30:00Z"), "Asia/Kolkata")).toBe(18);
  });

  it("builds each formatter once per time zone, not per call", () => {
    const constructions = countFormatterConstructions();
    try {
      for (let day = 1; day <= 28; day++) {
        const iso = `2026-02-${String(day).padStart(2, "0")}T10:00:00Z`;
        formatDay(iso, "Asia/Dubai");
        formatShortDay(iso, "Asia/Dubai");
        hourIn(new Date(iso), "Asia/Dubai");
      }
      expect(constructions.counter.count).toBe(3);
    } finally {
      constructions.restore();
    }
  });
});

describe("the instant a day reaches an hour in a time zone", () => {
  it("is that day's hour:00 in the zone, across half-hour offsets and clock changes", () => {
    const at = (iso: string, hour: number, zone: string) => hourOfDayIn(new Date(iso), hour, zone).toISOString();
    expect(at("2026-11-26T14:10:00Z", 18, "Asia/Kolkata")).toBe("2026-11-26T12:30:00.000Z");
    // 00:30 in Kolkata on the 27th is still the 26th in UTC: the zone's day counts.
    expect(at("2026-11-26T19:00:00Z", 18, "Asia/Kolkata")).toBe("2026-11-27T12:30:00.000Z");
    // New York on the days its clocks change (UTC−4 in summer, UTC−5 in winter).
    expect(at("2026-03-08T20:00:00Z", 18, "America/New_York")).toBe("2026-03-08T22:00:00.000Z");
    expect(at("2026-11-01T20:00:00Z", 18, "America/New_York")).toBe("2026-11-01T23:00:00.000Z");
    expect(at("2026-11-01T20:00:00Z", 0, "America/New_York")).toBe("2026-11-01T04:00:00.000Z");
  });

  it("is in the same zone day and hour as asked, for any instant", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true }),
        // From 04:00: these zones' clock changes skip an hour before it, and a skipped hour has no instant.
        fc.integer({ min: 4, max: 23 }),
        fc.constantFrom("Asia/Kolkata", "Europe/London", "America/New_York", "Australia/Adelaide"),
        (instant, hour, zone) => {
          const result = hourOfDayIn(instant, hour, zone);
          expect(calendarDate(result, zone)).toBe(calendarDate(instant, zone));
          expect(hourIn(result, zone)).toBe(hour);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
