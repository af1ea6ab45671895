const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** An instant's day in the institute's time zone, as '12 March 2026', like a document's own dates. */
export function formatDay(iso: string, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat("en-IN", { dateStyle: "long", timeZone })));
  return format.format(new Date(iso));
}
