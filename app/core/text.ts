/**
 * Limits every stored text field shares, browser and server alike. Each is checked on the
 * length first, so no pattern ever runs over more than these many characters.
 */
export const textLimits = {
  /** A person's name or username. */
  name: 100,
  /** RFC 5321's longest usable address. */
  email: 254,
  taskLink: 2_048,
  /** A notice, task, certificate or offer letter, after sanitizing. */
  message: 20_000,
  /**
   * The lines and the tags (each `<`) a typed message may have. The sanitizer's time grows with
   * them (100,000 `<` took 100 ms and more); nobody writes a notice of 2,000 lines.
   */
  messageLines: 2_000,
  messageTags: 2_000,
  search: 200,
} as const;

/**
 * Control characters other than tab, line feed and carriage return. None belongs in text a
 * person typed, and PostgreSQL refuses NUL outright, so they are refused with a 400 everywhere.
 */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
}

/**
 * An id taken from an address (a route's parameter), or null when no record can have it: too
 * long, or with a control character (PostgreSQL refuses NUL outright: a 500, not "not found").
 */
export function idFromAddress(value: string | undefined): string | null {
  return value && value.length <= 200 && !hasControlCharacters(value) ? value : null;
}

export const controlCharacterMessage = "Remove the control characters from the text.";

/**
 * Tab, line feed or carriage return: allowed in a text area, never in a single-line field (a
 * name, an email, a phone, a course, batch or company name). Such a value stays one line on
 * every page and one cell of every CSV row a spreadsheet reads back.
 */
export function hasLineBreakOrTab(value: string): boolean {
  return /[\t\n\r]/.test(value);
}

export const singleLineMessage = "Keep this to one line: remove the line breaks and tabs.";
