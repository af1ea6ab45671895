import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { parse, CsvError } from "csv-parse";
import { learnerDetailsSchemaFor } from "~/accounts/sign-up-schema";
import type { Auth } from "~/accounts/auth.server";
import { signUpCourseOptions } from "~/catalogue/catalogue.server";
import type { Db } from "~/db/database.server";
import { queueInvitations } from "~/accounts/invitations.server";
import type { EventBus } from "~/realtime/bus.server";
import { mailTopic, staffTopic, userTopic } from "~/realtime/events";
import { hasControlCharacters, hasLineBreakOrTab } from "~/security/text";
import { recordAudit, type Actor } from "./audit.server";
import {
  importColumns,
  importLimits,
  importMessages,
  importModes,
  totalsInWords,
  wordsList,
  type FailedRow,
  type ImportColumn,
  type ImportMode,
  type ImportResult,
  type ImportTotals,
  type PlannedRow,
} from "./import-types";

/** One data row of the file, as read: its line number and its cells under the known columns. */
export interface ImportRow {
  line: number;
  values: Record<ImportColumn, string>;
}

export type ParsedFile =
  { ok: true; rows: ImportRow[]; extraColumns: string[] } | { ok: false; status: 400 | 413 | 415; message: string };

class FileProblem extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

const formulaEscaped = /^'[=+\-@\t\r]/;

/** A cell as typed: trimmed, and without the quote an export put before a formula-like text. */
function cellValue(raw: string | undefined): string {
  const value = (raw ?? "").trim();
  return formulaEscaped.test(value) ? value.slice(1) : value;
}

/** Why csv-parse refused the file, in words. */
function csvProblem(error: CsvError): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quoted cell is never closed";
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return "a quote is in the wrong place; put quotes around the whole cell";
    case "CSV_MAX_RECORD_SIZE":
      return `a row is longer than ${importLimits.maxRowChars.toLocaleString("en-IN")} characters`;
    default:
      return "it cannot be read";
  }
}

/**
 * Reads an uploaded CSV file: UTF-8 (a byte-order mark is fine; anything that is not UTF-8 is
 * refused, with UTF-16 named), its first row naming the columns (any letter case, any order;
 * missing ones refused, extra ones reported and ignored), then at most `maxRows` data rows.
 * Blank rows are left out; every row keeps its line number in the file. Streams the bytes
 * through a strict UTF-8 decoder into csv-parse and stops at the first row too many.
 */
export async function parseLearnerFile(file: Blob): Promise<ParsedFile> {
  if (file.size > importLimits.maxFileBytes) return { ok: false, status: 413, message: importMessages.tooLarge };
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  if (head.length === 0) return { ok: false, status: 400, message: importMessages.empty };
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff) || head.includes(0)) {
    // A UTF-16 file (with or without its mark) is full of zero bytes, which no CSV text has.
    return { ok: false, status: 415, message: importMessages.utf16 };
  }
  const text = file.stream().pipeThrough(new TextDecoderStream("utf-8", { fatal: true }));
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    max_record_size: importLimits.maxRowChars,
  });
  const source = Readable.fromWeb(text as import("node:stream/web").ReadableStream<string>);
  source.on("error", (error) => parser.destroy(error));
  source.pipe(parser);

  let header: Map<ImportColumn, number> | null = null;
  let extraColumns: string[] = [];
  const rows: ImportRow[] = [];
  let lastLine = 0;
  // csv-parse counts a CRLF inside a quoted cell as two lines; this puts the count right.
  let doubleCounted = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = lastLine + 1;
      for (const cell of record) doubleCounted += cell.split("\r\n").length - 1;
      lastLine = info.lines - doubleCounted;
      if (record.every((cell) => cell.trim() === "")) continue;
      if (!header) {
        ({ header, extraColumns } = readHeader(record));
        continue;
      }
      if (rows.length === importLimits.maxRows) throw new FileProblem(413, importMessages.tooManyRows);
      const values = Object.fromEntries(
        importColumns.map((column) => [column, cellValue(record[header!.get(column)!])]),
      ) as Record<ImportColumn, string>;
      rows.push({ line, values });
    }
  } catch (error) {
    source.destroy();
    parser.destroy();
    if (error instanceof FileProblem) return { ok: false, status: error.status, message: error.message };
    if (error instanceof CsvError) {
      return { ok: false, status: 400, message: importMessages.notCsv(lastLine + 1, csvProblem(error)) };
    }
    // The strict decoder's refusal: bytes that are not UTF-8.
    if (error instanceof TypeError) return { ok: false, status: 415, message: importMessages.notUtf8 };
    throw error;
  }
  if (!header) return { ok: false, status: 400, message: importMessages.empty };
  if (rows.length === 0) return { ok: false, status: 400, message: importMessages.noRows };
  return { ok: true, rows, extraColumns };
}

function readHeader(record: string[]): { header: Map<ImportColumn, number>; extraColumns: string[] } {
  const header = new Map<ImportColumn, number>();
  const extraColumns: string[] = [];
  record.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if ((importColumns as readonly string[]).includes(name)) {
      if (header.has(name as ImportColumn)) throw new FileProblem(400, importMessages.duplicateColumn(name));
      header.set(name as ImportColumn, index);
    } else if (name) {
      extraColumns.push(raw.trim().slice(0, 100));
    }
  });
  const missing = importColumns.filter((column) => !header.has(column));
  if (missing.length > 0) throw new FileProblem(400, importMessages.missingColumns(missing));
  return { header, extraColumns: extraColumns.slice(0, 50) };
}

/** The sign-up's course options now, and their spelling for a course typed in any letter case. */
interface CourseOptions {
  list: readonly string[];
  byLowerCase: Map<string, string>;
}

async function courseOptionsOf(db: Db): Promise<CourseOptions> {
  const list = await signUpCourseOptions(db);
  return { list, byLowerCase: new Map(list.map((course) => [course.toLowerCase(), course])) };
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
    username: values.name,
    email: values.email.toLowerCase(),
    phone: values.phone,
    course: courses.byLowerCase.get(values.course.toLowerCase()) ?? values.course,
    gender: values.gender.toLowerCase(),
  });
  if (result.success) return { ok: true as const, details: result.data };
  return { ok: false as const, problems: result.error.issues.map((issue) => issue.message) };
}

type Details = Extract<ReturnType<typeof checkRow>, { ok: true }>["details"];

interface ExistingUser {
  id: string;
  email: string;
  username: string | null;
  phone: string | null;
  course: string | null;
  gender: string | null;
  role: string | null;
}

const profileLabels = { username: "name", phone: "phone", course: "course", gender: "gender" } as const;

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
  const changed = (Object.keys(profileLabels) as (keyof typeof profileLabels)[]).filter(
    (field) => (existing[field] ?? "") !== details[field],
  );
  if (changed.length === 0) return { action: "skip" as const, notes: ["Already up to date."] };
  return { action: "update" as const, notes: [`Changes ${wordsList(changed.map((f) => profileLabels[f]))}.`] };
}

/** The users who have these emails, by email (500 at a time). */
async function usersByEmail(db: Db, emails: string[]): Promise<Map<string, ExistingUser>> {
  const found = new Map<string, ExistingUser>();
  for (let i = 0; i < emails.length; i += 500) {
    const rows = await db
      .selectFrom("user")
      .select(["id", "email", "username", "phone", "course", "gender", "role"])
      .where("email", "in", emails.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.email, row);
  }
  return found;
}

interface CheckedRow extends ImportRow {
  checked: ReturnType<typeof checkRow>;
  /** The line that has this email first, when this row repeats it. */
  repeats?: number;
}

/** Every row checked by itself and against the rows above it (an email given twice). */
function checkRows(rows: readonly ImportRow[], courses: CourseOptions): CheckedRow[] {
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
function planChecked(rows: readonly CheckedRow[], existing: Map<string, ExistingUser>, mode: ImportMode) {
  return rows.map((row) => {
    if (!row.checked.ok) return { row, action: "error" as const, notes: row.checked.problems };
    if (row.repeats !== undefined) {
      return { row, action: "error" as const, notes: [`This email is already on line ${row.repeats}.`] };
    }
    return { row, ...decide(row.checked.details, existing.get(row.checked.details.email), mode) };
  });
}

const emailsOf = (rows: readonly CheckedRow[]) =>
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

/** A dry run kept for its Import click: the parsed rows, under a random id, for this admin, for an hour. */
export async function saveDryRun(
  db: Db,
  actor: Actor,
  input: { fileName: string; mode: ImportMode; rows: ImportRow[]; extraColumns: string[] },
  now = new Date(),
): Promise<string> {
  const id = randomBytes(24).toString("base64url");
  // Old dry runs and results go as new ones come.
  await db.deleteFrom("learner_import").where("expiresAt", "<", now.toISOString()).execute();
  await db
    .insertInto("learner_import")
    .values({
      id,
      actorId: actor.id,
      fileName: input.fileName,
      mode: input.mode,
      status: "pending",
      extraColumns: JSON.stringify(input.extraColumns),
      rows: JSON.stringify(input.rows),
      result: null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + importLimits.keptMs).toISOString(),
    })
    .execute();
  return id;
}

export interface StoredImport {
  id: string;
  fileName: string;
  mode: ImportMode;
  status: "pending" | "importing" | "done";
  extraColumns: string[];
  rows: ImportRow[];
  result: ImportResult | null;
}

/** This admin's dry run or result, while it is kept; null for anyone else's, or an expired one. */
export async function findImport(db: Db, actorId: string, id: string, now = new Date()): Promise<StoredImport | null> {
  if (!id || id.length > 100) return null;
  const row = await db
    .selectFrom("learner_import")
    .selectAll()
    .where("id", "=", id)
    .where("actorId", "=", actorId)
    .where("expiresAt", ">", now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    fileName: row.fileName,
    mode: row.mode,
    status: row.status,
    extraColumns: JSON.parse(row.extraColumns) as string[],
    rows: JSON.parse(row.rows) as ImportRow[],
    result: row.result ? (JSON.parse(row.result) as ImportResult) : null,
  };
}

export interface ImportDeps {
  db: Db;
  bus: EventBus;
  auth: Auth;
}

/** Rows written per transaction: each is short, so sign-ups and other writers go on meanwhile. */
const importBatchSize = 500;

/**
 * Applies a dry run: claims it (a second click finds it running or done), then a batch of rows
 * per transaction, each planned again against the database as it is then (an email registered
 * since the dry run is skipped or updated, not duplicated). New learners are better-auth users
 * without a password (no credential account until they choose one, so signing in fails as for
 * a wrong password). The last transaction stores the result and writes the audit row. Staff
 * lists and the updated learners' tabs are told after each batch. The new learners'
 * invitations are queued with the result (the mail queue sends and retries them), so a failed
 * email never fails the import and a restart loses none.
 */
export async function applyImport(
  deps: ImportDeps,
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<{ ok: true; result: ImportResult } | { ok: false; status: 404 | 409; message: string }> {
  const stored = await findImport(deps.db, actor.id, id, now);
  if (!stored || stored.status === "done") return { ok: false, status: 404, message: importMessages.gone };
  const claimed = await deps.db
    .updateTable("learner_import")
    .set({ status: "importing" })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, status: 409, message: importMessages.busy };

  const context = await deps.auth.$context;
  const newId = () => context.generateId({ model: "user" }) || randomUUID();
  const checked = checkRows(stored.rows, await courseOptionsOf(deps.db));
  const totals: ImportTotals = { create: 0, update: 0, skip: 0, error: 0 };
  const failed: FailedRow[] = [];
  const created: string[] = [];
  try {
    for (let i = 0; i < checked.length; i += importBatchSize) {
      const batch = checked.slice(i, i + importBatchSize);
      const updated = await deps.db.transaction().execute(async (trx) => {
        const planned = planChecked(batch, await usersByEmail(trx, emailsOf(batch)), stored.mode);
        const at = new Date().toISOString();
        const toCreate = planned.flatMap((p) => (p.action === "create" && p.row.checked.ok ? [p] : []));
        const inserted = new Set<string>();
        if (toCreate.length > 0) {
          const rows = toCreate.map(({ row }) => {
            const details = (row.checked as Extract<CheckedRow["checked"], { ok: true }>).details;
            return {
              id: newId(),
              name: details.username,
              email: details.email,
              emailVerified: false,
              image: null,
              createdAt: at,
              updatedAt: at,
              username: details.username,
              phone: details.phone,
              course: details.course,
              gender: details.gender,
              role: null,
            };
          });
          // An email registered a moment ago (a sign-up) is left alone, not a failed batch.
          const written = await trx
            .insertInto("user")
            .values(rows)
            .onConflict((oc) => oc.column("email").doNothing())
            .returning(["id", "email", "username"])
            .execute();
          for (const row of written) {
            inserted.add(row.email);
            created.push(row.id);
          }
        }
        const changed: string[] = [];
        for (const plan of planned) {
          const values = plan.row.values;
          const line = plan.row.line;
          if (plan.action === "error") {
            failed.push({ line, values, reason: plan.notes.join(" ") });
          } else if (plan.action === "create" && plan.row.checked.ok && !inserted.has(plan.row.checked.details.email)) {
            failed.push({ line, values, reason: "This email was registered while the import ran." });
            totals.error++;
            continue;
          } else if (plan.action === "update" && plan.row.checked.ok) {
            const { details } = plan.row.checked;
            const result = await trx
              .updateTable("user")
              .set({
                name: details.username,
                username: details.username,
                phone: details.phone,
                course: details.course,
                gender: details.gender,
                updatedAt: at,
              })
              .where("email", "=", details.email)
              .where((eb) => eb.or([eb("role", "is", null), eb("role", "=", "")]))
              .returning("id")
              .executeTakeFirst();
            if (!result) {
              failed.push({ line, values, reason: "This learner changed while the import ran." });
              totals.error++;
              continue;
            }
            changed.push(result.id);
          }
          totals[plan.action]++;
        }
        return changed;
      });
      for (const learnerId of updated) await deps.bus.publish(userTopic(learnerId), { type: "profile", learnerId });
      if (updated.length > 0 || created.length > 0) {
        await deps.bus.publish(staffTopic, { type: "learners-imported", count: totals.create + totals.update });
      }
    }
  } catch (error) {
    // Nothing half-done is lost: committed batches stay, and Import again plans what is left.
    await deps.db.updateTable("learner_import").set({ status: "pending" }).where("id", "=", id).execute();
    throw error;
  }

  const result: ImportResult = { totals, failed, invited: created.length };
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("learner_import")
      .set({
        status: "done",
        result: JSON.stringify(result),
        rows: "[]",
        expiresAt: new Date(Date.now() + importLimits.keptMs).toISOString(),
      })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, actor, {
      action: "import",
      // The audit log shows it as written: 'Imported learners (Add new only)'.
      detail: importModes.find((m) => m.value === stored.mode)!.label,
      targetId: null,
      target: `${stored.fileName}: ${totalsInWords(totals, "failed")}`,
      count: totals.create + totals.update,
    });
    await queueInvitations(trx, created);
  });
  if (created.length > 0) await deps.bus.publish(mailTopic, { type: "mail-queued" });
  return { ok: true, result };
}
