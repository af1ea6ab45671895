import { sql, type SqlBool } from "kysely";
import type { Db } from "~/db/database.server";
import { perKind, readableKinds, type ReadableKind } from "~/messages/kinds";
import { yieldToEventLoop } from "~/core/heavy-reports.server";
import { learnerWhere } from "~/learners/learner-filter.server";
import type { LearnerFilter } from "~/learners/learner-filter";
import { dayNumber } from "~/core/dates";

/** Learners read per query: one keyset page, and one query each for its links, resumes and unread counts. */
export const exportBatchSize = 1000;

/**
 * Records made (their links, resumes and unread counts read, and written as CSV) between two
 * turns of the event loop: a few milliseconds' work.
 */
const recordsPerTurn = 100;

const unreadHeader: Record<ReadableKind, string> = {
  notice: "unread notices",
  task: "unread tasks",
  certificate: "unread certificates",
  offer: "unread offer letter",
};

/** The file's columns, in order: the key each record carries and the header's name. */
export const exportColumns = [
  { key: "id", header: "id" },
  { key: "name", header: "name" },
  { key: "email", header: "email" },
  { key: "phone", header: "phone" },
  { key: "course", header: "course" },
  { key: "gender", header: "gender" },
  { key: "signedUp", header: "signed up" },
  { key: "day", header: "day" },
  { key: "resume", header: "resume" },
  { key: "taskLinks", header: "task links" },
  ...readableKinds.map((kind) => ({ key: `unread-${kind}`, header: unreadHeader[kind] })),
];

interface LearnerRow {
  id: string;
  name: string;
  username: string | null;
  email: string;
  phone: string | null;
  course: string | null;
  gender: string | null;
  createdAt: string | Date;
}

/**
 * Every matching learner, newest first (the list's order), a batch at a time: each batch starts
 * after the last row of the one before (createdAt, id), so every query seeks in the learners'
 * (createdAt, id) index instead of skipping an ever larger offset.
 */
async function* learnerBatches(db: Db, filter: LearnerFilter, batchSize: number): AsyncGenerator<LearnerRow[]> {
  let after: { createdAt: string | Date; id: string } | null = null;
  for (;;) {
    let query = db
      .selectFrom("user")
      .select(["id", "name", "username", "email", "phone", "course", "gender", "createdAt"])
      .where(learnerWhere(filter));
    if (after) {
      const { createdAt, id } = after;
      query = query.where(sql<SqlBool>`("user"."createdAt", "user"."id") < (${createdAt}, ${id})`);
    }
    const rows: LearnerRow[] = await query
      .orderBy("user.createdAt", "desc")
      .orderBy("user.id", "desc")
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    after = rows.at(-1)!;
    await yieldToEventLoop();
  }
}

/** What the batch's learners have beyond their row: links, resume and unread counts, one query each. */
async function batchExtras(db: Db, ids: string[]) {
  const [links, resumes, unread, letters] = await Promise.all([
    db
      .selectFrom("task_link")
      .select((eb) => ["learnerId", eb.fn.countAll<number | string>().as("n")])
      .where("learnerId", "in", ids)
      .groupBy("learnerId")
      .execute(),
    db.selectFrom("resume").select("learnerId").where("learnerId", "in", ids).execute(),
    db
      .selectFrom("message")
      .select((eb) => ["learnerId", "kind", eb.fn.countAll<number | string>().as("n")])
      .where("learnerId", "in", ids)
      .where("readAt", "is", null)
      .groupBy(["learnerId", "kind"])
      .execute(),
    db
      .selectFrom("offer_letter")
      .select("learnerId")
      .where("learnerId", "in", ids)
      .where("readAt", "is", null)
      .execute(),
  ]);
  const unreadOf = new Map<string, Record<ReadableKind, number>>();
  const countsOf = (id: string) => {
    let counts = unreadOf.get(id);
    if (!counts) unreadOf.set(id, (counts = perKind(readableKinds, () => 0)));
    return counts;
  };
  for (const row of unread) countsOf(row.learnerId)[row.kind] = Number(row.n);
  for (const row of letters) countsOf(row.learnerId).offer = 1;
  return {
    links: new Map(links.map((row) => [row.learnerId, Number(row.n)])),
    resumes: new Set(resumes.map((row) => row.learnerId)),
    unread: (id: string) => unreadOf.get(id) ?? perKind(readableKinds, () => 0),
  };
}

/** The export's records, one per learner, read a batch at a time as the consumer asks for more. */
export async function* learnerRecords(
  db: Db,
  filter: LearnerFilter,
  { timeZone, now = new Date(), batchSize = exportBatchSize }: { timeZone: string; now?: Date; batchSize?: number },
): AsyncGenerator<Record<string, string | number>> {
  for await (const page of learnerBatches(db, filter, batchSize)) {
    for (let start = 0; start < page.length; start += recordsPerTurn) {
      if (start > 0) await yieldToEventLoop();
      const rows = page.slice(start, start + recordsPerTurn);
      const extras = await batchExtras(
        db,
        rows.map((row) => row.id),
      );
      for (const row of rows) {
        const createdAt = new Date(row.createdAt);
        const unread = extras.unread(row.id);
        yield {
          id: row.id,
          name: row.username || row.name,
          email: row.email,
          // Stored as the 10 digits sign-up asks for (no +91): it never needs the formula escape
          // and the import reads it back as it is.
          phone: row.phone ?? "",
          course: row.course ?? "",
          gender: row.gender ?? "",
          signedUp: createdAt.toISOString(),
          day: dayNumber(createdAt, now, timeZone),
          resume: extras.resumes.has(row.id) ? "yes" : "no",
          taskLinks: extras.links.get(row.id) ?? 0,
          ...Object.fromEntries(readableKinds.map((kind) => [`unread-${kind}`, unread[kind]])),
        };
      }
    }
  }
}
