/** The longest file name kept: what file systems allow, and plenty for a person's. */
export const maxStoredFileNameLength = 255;

/**
 * The one rule for every file name that is stored and shown again (resumes, offer letters,
 * imported CSVs): the last part of a path (a browser may send `C:\fakepath\…`, a script `../x`),
 * without control characters (line breaks and tabs included) or the invisible marks that turn
 * text around (which make `fdp.exe` look like `exe.pdf`), at most 255 characters with the
 * extension kept; `fallback` when nothing is left.
 */
export function storedFileName(raw: string, fallback: string): string {
  const lastPart = raw.split(/[/\\]/).at(-1) ?? "";
  const printable = lastPart.replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu, "").trim();
  if (printable === "" || printable === "." || printable === "..") return fallback;
  const characters = [...printable];
  if (characters.length <= maxStoredFileNameLength) return printable;
  const extension = /\.[\p{L}\p{N}]{1,10}$/u.exec(printable)?.[0] ?? "";
  return characters.slice(0, maxStoredFileNameLength - extension.length).join("") + extension;
}
