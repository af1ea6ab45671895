const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A date as "22 Nov 2026, 10:15 am" in the institute's time zone. The zone is fixed (not the
 * browser's), so the server's render and the browser's agree.
 */
export function formatDateTime(iso: string, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(new Date(iso));
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
