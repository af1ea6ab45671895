import {
  learnerDetailsSchemaFor,
  profileColumn,
  profileField,
  profileFieldNames,
  type ProfileField,
} from "~/accounts/sign-up-schema";
import { signUpCourseOptions } from "~/catalogue/catalogue.server";
import type { Db } from "~/db/database.server";
import { hasControlCharacters, hasLineBreakOrTab } from "~/core/text";
import {
  importColumns,
  wordsList,
  type ImportColumn,
  type ImportMode,
  type ImportTotals,
  type PlannedRow,
} from "./import-types";
import type { ImportRow } from "./learner-file.server";

/** The sign-up's course options now, and their spelling for a course typed in any letter case. */
interface CourseOptions {
  list: readonly string[];
  byLowerCase: Map<string, string>;
}

export async function courseOptionsOf(db: Db): Promise<CourseOptions> {
  const list = await signUpCourseOptions(db);
  return { list, byLowerCase: new Map(list.map((course) => [course.toLowerCase(), course])) };
}

/** A cell as its field takes it: a course in the list's spelling, a choice in lower case. */
function importedValue(name: ProfileField, typed: string, courses: CourseOptions): string {
  const { kind } = profileField(name).input;
  if (kind === "course") return courses.byLowerCase.get(typed.toLowerCase()) ?? typed;
  return kind === "choice" ? typed.toLowerCase() : typed;
}

/** A row's details by the sign-up rules (every field's problem), after the spellings a spreadsheet varies. */
function checkRow(values: Record<ImportColumn, string>, courses: CourseOptions) {
  const controls = importColumns.filter((column) => hasControlCharacters(values[column]));
  if (controls.length > 0) {
    return { ok: false as const, problems: [`Remove the control characters from ${wordsList(controls)}.`] };
  }
  // A quoted cell may hold line breaks (an older export's name did); no learner's detail may.
  const broken = importColumns.filter((column) => hasLineBreakOrTab(values[column]));
  if (broken.length > 0) {
    return { ok: false as const, problems: [`Remove the line breaks and tabs from ${wordsList(broken)}.`] };
  }
  const result = learnerDetailsSchemaFor(courses.list).safeParse({
    ...Object.fromEntries(
      profileFieldNames.map((name) => [name, importedValue(name, values[profileColumn(name)], courses)]),
    ),
    email: values.email.toLowerCase(),
  });
  if (result.success) return { ok: true as const, details: result.data };
  return { ok: false as const, problems: result.error.issues.map((issue) => issue.message) };
}

type Details = Extract<ReturnType<typeof checkRow>, { ok: true }>["details"];

type ExistingUser = { id: string; email: string; role: string | null } & Record<ProfileField, string | null>;

/** What a row of valid details does to the learner who has its email, if any. */
function decide(details: Details, existing: ExistingUser | undefined, mode: ImportMode) {
  if (!existing) return { action: "create" as const, notes: [] };
  if (existing.role) {
    return {
      action: "error" as const,
      notes: ["That email belongs to a staff account; an import changes learners only."],
    };
  }
  if (mode === "add") return { action: "skip" as const, notes: ["A learner with this email is already registered."] };
  const changed = profileFieldNames.filter((field) => (existing[field] ?? "") !== details[field]);
  if (changed.length === 0) return { action: "skip" as const, notes: ["Already up to date."] };
  return { action: "update" as const, notes: [`Changes ${wordsList(changed.map(profileColumn))}.`] };
}

/** The users who have these emails, by email (500 at a time). */
export async function usersByEmail(db: Db, emails: string[]): Promise<Map<string, ExistingUser>> {
  const found = new Map<string, ExistingUser>();
  for (let i = 0; i < emails.length; i += 500) {
    const rows = await db
      .selectFrom("user")
      .select(["id", "email", "role", ...profileFieldNames])
      .where("email", "in", emails.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.email, row);
  }
  return found;
}

export interface CheckedRow extends ImportRow {
  checked: ReturnType<typeof checkRow>;
  /** The line that has this email first, when this row repeats it. */
  repeats?: number;
}

/** Every row checked by itself and against the rows above it (an email given twice). */
export function checkRows(rows: readonly ImportRow[], courses: CourseOptions): CheckedRow[] {
  const firstLine = new Map<string, number>();
  return rows.map((row) => {
    const checked = checkRow(row.values, courses);
    if (!checked.ok) return { ...row, checked };
    const seen = firstLine.get(checked.details.email);
    if (seen !== undefined) return { ...row, checked, repeats: seen };
    firstLine.set(checked.details.email, row.line);
    return { ...row, checked };
  });
}

/** What each checked row would do against the database as it is now. */
export function planChecked(rows: readonly CheckedRow[], existing: Map<string, ExistingUser>, mode: ImportMode) {
  return rows.map((row) => {
    if (!row.checked.ok) return { row, action: "error" as const, notes: row.checked.problems };
    if (row.repeats !== undefined) {
      return { row, action: "error" as const, notes: [`This email is already on line ${row.repeats}.`] };
    }
    return { row, ...decide(row.checked.details, existing.get(row.checked.details.email), mode) };
  });
}

export const emailsOf = (rows: readonly CheckedRow[]) =>
  rows.flatMap((row) => (row.checked.ok && row.repeats === undefined ? [row.checked.details.email] : []));

/** The dry run: for every row, what Import would do now and why, with every problem of every row. */
export async function planImport(db: Db, rows: readonly ImportRow[], mode: ImportMode): Promise<PlannedRow[]> {
  const checked = checkRows(rows, await courseOptionsOf(db));
  const existing = await usersByEmail(db, emailsOf(checked));
  return planChecked(checked, existing, mode).map(({ row, action, notes }) => ({
    line: row.line,
    values: row.values,
    action,
    notes,
  }));
}

export function countActions(rows: readonly { action: PlannedRow["action"] }[]): ImportTotals {
  const totals: ImportTotals = { create: 0, update: 0, skip: 0, error: 0 };
  for (const row of rows) totals[row.action]++;
  return totals;
}
