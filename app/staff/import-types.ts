import { learnerCsvColumns, type LearnerCsvColumn } from "~/accounts/sign-up-schema";
// The learner import's words and shapes, shared by its server code and its page.

/** The columns an import file must have, by their header names (matched case-insensitively). */
export const importColumns = learnerCsvColumns;

export type ImportColumn = LearnerCsvColumn;

/** What an email that already belongs to a learner does. */
export const importModes = [
  { value: "add", label: "Add new only", hint: "Rows whose email is already registered are skipped." },
  { value: "update", label: "Add and update", hint: "Rows whose email is already registered update that learner." },
] as const;

export type ImportMode = (typeof importModes)[number]["value"];

export const importLimits = {
  maxFileBytes: 5 * 1024 * 1024,
  maxRows: 10_000,
  /** The longest row (a valid one is a few hundred characters). */
  maxRowChars: 10_000,
  /** How long a dry run waits for its Import click, and a result stays to be read. */
  keptMs: 60 * 60_000,
} as const;

/** What happens to a row: a new learner, a changed learner, nothing, or nothing because of its problems. */
export type RowAction = "create" | "update" | "skip" | "error";

export interface PlannedRow {
  line: number;
  values: Record<ImportColumn, string>;
  action: RowAction;
  /** Why: the row's problems (error), or why it is skipped or what it changes. */
  notes: string[];
}

export type ImportTotals = Record<RowAction, number>;

/** A row that was not imported, with its reason (the result's CSV of failed rows). */
export interface FailedRow {
  line: number;
  values: Record<ImportColumn, string>;
  reason: string;
}

export interface ImportResult {
  totals: ImportTotals;
  failed: FailedRow[];
  /** How many new learners were sent an invitation (in the background, after the import). */
  invited: number;
}

/** The rows a page of the dry run lists, and which of them. */
export const planPageSize = 500;

export const planFilters = [
  { value: "all", label: "All rows" },
  { value: "error", label: "Rows with problems" },
  { value: "create", label: "New learners" },
  { value: "update", label: "Updated learners" },
  { value: "skip", label: "Skipped rows" },
] as const;

export type PlanFilter = (typeof planFilters)[number]["value"];

const mb = importLimits.maxFileBytes / 1024 / 1024;

export const importMessages = {
  noFile: "Choose a CSV file to upload.",
  tooLarge: `The file is larger than ${mb} MB. Split it into smaller files and upload each.`,
  tooManyRows: `The file has more than ${importLimits.maxRows.toLocaleString("en-IN")} rows. Split it into files of at most ${importLimits.maxRows.toLocaleString("en-IN")} rows.`,
  notUtf8:
    "The file is not UTF-8 text. In your spreadsheet, save it as “CSV UTF-8 (comma delimited)” and upload it again.",
  utf16:
    "The file is UTF-16 text, not UTF-8. In your spreadsheet, save it as “CSV UTF-8 (comma delimited)” and upload it again.",
  empty: `The file is empty. Its first row must name the columns: ${importColumns.join(", ")}.`,
  noRows: "The file has its header row but no learners under it.",
  missingColumns: (missing: string[]) =>
    `The file has no ${wordsList(missing)} ${missing.length === 1 ? "column" : "columns"}. Its first row must name the columns: ${importColumns.join(", ")}.`,
  duplicateColumn: (name: string) => `The file has two “${name}” columns. Keep one and upload it again.`,
  notCsv: (line: number, why: string) => `The file is not valid CSV: ${why} (line ${line}).`,
  oneFile: "Upload one file at a time.",
  unreadable: "The upload could not be read. Please choose the file and try again.",
  notAForm: "Send the import form.",
  gone: "This dry run has expired or was already imported. Upload the file again.",
  busy: "This import is already running.",
  tooMany: "Too many imports. Please wait an hour and try again.",
} as const;

/** 'a', 'a and b', 'a, b and c'. */
export function wordsList(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** The totals in words: '3 new, 1 updated, 2 skipped, 1 with problems'. */
export function totalsInWords(totals: ImportTotals, failedWord = "with problems"): string {
  return `${totals.create} new, ${totals.update} updated, ${totals.skip} skipped, ${totals.error} ${failedWord}`;
}
