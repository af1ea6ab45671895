import { learnerCsvColumns, profileColumn, profileFieldNames } from "~/accounts/sign-up-schema";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Db } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { kindLabels, messageKinds, readableKinds, type MessageKind, type ReadableKind } from "~/messages/kinds";
import { yieldToEventLoop } from "~/core/heavy-reports.server";
import { isLearner, learnerWhere } from "~/learners/learner-filter.server";
import type { FilterClock, LearnerFilter } from "~/learners/learner-filter";
import { dayNumber } from "~/core/dates";

/**
 * Learners looked at per statement: each statement reads one range of this many learners (in the
 * list's order) with what they have beyond their row, and keeps those matching the search. On
 * SQLite, whose statements hold the event loop while they run, one range is about a millisecond.
 */
export const exportBatchSize = 250;

/** "unread notices", …, and "unread offer letter" (a learner has one at most). */
const unreadHeader = (kind: ReadableKind) =>
  kind === "offer" ? "unread offer letter" : `unread ${kindLabels[kind].plural}`;

/** The file's columns, in order: the key each record carries and the header's name. */
export const exportColumns = [
  { key: "id", header: "id" },
  ...learnerCsvColumns.map((column) => ({ key: column, header: column })),
  { key: "signedUp", header: "signed up" },
  { key: "day", header: "day" },
  { key: "resume", header: "resume" },
  { key: "taskLinks", header: "task links" },
  ...readableKinds.map((kind) => ({ key: `unread-${kind}`, header: unreadHeader(kind) })),
];

/** A learner's place in the list's order (newest first): the learners' (createdAt, id) index. */
interface ListKey {
  createdAt: string | Date;
  id: string;
}

/** The learners from just after `after` (exclusive) down to `through` (inclusive); null ends are open. */
interface LearnerRange {
  after: ListKey | null;
  through: ListKey | null;
}

function inRange({ after, through }: LearnerRange) {
  return (eb: ExpressionBuilder<Database, "user">) => {
    const terms: Expression<SqlBool>[] = [isLearner];
    if (after) terms.push(sql<SqlBool>`("user"."createdAt", "user"."id") < (${after.createdAt}, ${after.id})`);
    if (through) terms.push(sql<SqlBool>`("user"."createdAt", "user"."id") >= (${through.createdAt}, ${through.id})`);
    return eb.and(terms);
  };
}

/**
 * Every learner, newest first, as ranges of `size` learners, whatever the search: a range's
 * bounds come from the learners' index alone, so a search that matches few learners still reads
 * only `size` of them per statement (a search as a statement's own filter, with a limit, would
 * read every learner in one statement when it matches none).
 */
async function* learnerRanges(db: Db, size: number): AsyncGenerator<LearnerRange> {
  let after: ListKey | null = null;
  for (;;) {
    const through: ListKey | undefined = await db
      .selectFrom("user")
      .select(["createdAt", "id"])
      .where(inRange({ after, through: null }))
      .orderBy("user.createdAt", "desc")
      .orderBy("user.id", "desc")
      .offset(size - 1)
      .limit(1)
      .executeTakeFirst();
    yield { after, through: through ?? null };
    if (!through) return;
    after = through;
    await yieldToEventLoop();
  }
}

/** The unread messages of one kind, counted per learner in the statement that reads them. */
function unreadOf(kind: MessageKind) {
  return (eb: ExpressionBuilder<Database, "user">) =>
    eb
      .selectFrom("message")
      .select((m) => m.fn.countAll<number | string>().as("n"))
      .whereRef("message.learnerId", "=", "user.id")
      .where("message.kind", "=", kind)
      .where("message.readAt", "is", null)
      .as(`unread-${kind}`);
}

/** Learners with their links, resume and unread counts: the export's columns, one statement. */
function exportQuery(db: Db) {
  return db
    .selectFrom("user")
    .select(["id", "name", "email", "createdAt", ...profileFieldNames])
    .select((eb) => [
      eb
        .selectFrom("task_link")
        .select((t) => t.fn.countAll<number | string>().as("n"))
        .whereRef("task_link.learnerId", "=", "user.id")
        .as("taskLinks"),
      eb
        .selectFrom("resume")
        .select((r) => r.fn.countAll<number | string>().as("n"))
        .whereRef("resume.learnerId", "=", "user.id")
        .as("resumes"),
      eb
        .selectFrom("offer_letter")
        .select((o) => o.fn.countAll<number | string>().as("n"))
        .whereRef("offer_letter.learnerId", "=", "user.id")
        .where("offer_letter.readAt", "is", null)
        .as("unread-offer"),
      ...messageKinds.map((kind) => unreadOf(kind)(eb)),
    ]);
}

/** One range's matching learners with their links, resume and unread counts: one statement. */
function rangeQuery(db: Db, filter: LearnerFilter, range: LearnerRange, clock?: FilterClock) {
  return exportQuery(db)
    .where(inRange(range))
    .where(learnerWhere(filter, clock))
    .orderBy("user.createdAt", "desc")
    .orderBy("user.id", "desc");
}

type ExportRow = Awaited<ReturnType<ReturnType<typeof rangeQuery>["execute"]>>[number];

/** How many learners match, counted a range at a time (the audit says it before the first byte). */
export async function countExported(
  db: Db,
  filter: LearnerFilter,
  batchSize = exportBatchSize,
  clock?: FilterClock,
): Promise<number> {
  let count = 0;
  for await (const range of learnerRanges(db, batchSize)) {
    const row = await db
      .selectFrom("user")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where(inRange(range))
      .where(learnerWhere(filter, clock))
      .executeTakeFirstOrThrow();
    count += Number(row.n);
  }
  return count;
}

function recordOf(row: ExportRow, now: Date, timeZone: string): Record<string, string | number> {
  const createdAt = new Date(row.createdAt);
  return {
    id: row.id,
    // The phone is stored as the 10 digits sign-up asks for (no +91): it never needs the formula
    // escape and the import reads it back as it is.
    ...Object.fromEntries(profileFieldNames.map((name) => [profileColumn(name), row[name] ?? ""])),
    name: row.username || row.name,
    email: row.email,
    signedUp: createdAt.toISOString(),
    day: dayNumber(createdAt, now, timeZone),
    resume: Number(row.resumes) > 0 ? "yes" : "no",
    taskLinks: Number(row.taskLinks ?? 0),
    ...Object.fromEntries(readableKinds.map((kind) => [`unread-${kind}`, Number(row[`unread-${kind}`] ?? 0)])),
  };
}

/**
 * The export's records, one per matching learner in the list's order, a range at a time as the
 * consumer asks for more, with a turn of the event loop between ranges.
 */
export async function* learnerRecords(
  db: Db,
  filter: LearnerFilter,
  { timeZone, now = new Date(), batchSize = exportBatchSize }: { timeZone: string; now?: Date; batchSize?: number },
  clock?: FilterClock,
): AsyncGenerator<Record<string, string | number>> {
  for await (const range of learnerRanges(db, batchSize)) {
    const rows = await rangeQuery(db, filter, range, clock).execute();
    for (const row of rows) yield recordOf(row, now, timeZone);
  }
}

/**
 * The records of exactly these learners (a selection, at most 500: one statement), in the
 * list's order; ids that are no learner are left out (the caller refuses such a selection first).
 */
export async function selectedRecords(
  db: Db,
  learnerIds: readonly string[],
  { timeZone, now = new Date() }: { timeZone: string; now?: Date },
): Promise<Record<string, string | number>[]> {
  if (learnerIds.length === 0) return [];
  const rows = await exportQuery(db)
    .where("user.id", "in", learnerIds)
    .where(isLearner)
    .orderBy("user.createdAt", "desc")
    .orderBy("user.id", "desc")
    .execute();
  return rows.map((row) => recordOf(row, now, timeZone));
}
