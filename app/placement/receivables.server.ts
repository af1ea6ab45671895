import { sql, type SqlBool } from "kysely";
import type { Db } from "~/db/database.server";
import { yieldToEventLoop } from "~/core/heavy-reports.server";
import { daysBetween, instalmentState, type InstalmentState } from "./fees";
import {
  ageingBucket,
  ageingBuckets,
  monthEnd,
  type Amount,
  type BatchReceivables,
  type Receivables,
} from "./receivables";
import { paise } from "~/core/money";
import { termsSourceOf } from "./terms-source";

/*
 * Receivables: what learners owe under verified placements, as instalmentState sees each
 * instalment today. Only instalments that fall due by the end of this month and are neither
 * waived nor paid in full are read (later ones owe nothing yet); an instalment is overdue when
 * its due date has passed and no pause covers it. Due this month is the unpaid part of
 * instalments falling due this month that are not paused, overdue ones included.
 */

const none = (): Amount => ({ count: 0, paise: 0 });
const empty = (): Receivables => ({
  open: 0,
  dueThisMonth: none(),
  overdue: { days0to30: none(), days31to60: none(), days61to90: none(), days90plus: none(), total: none() },
  paused: none(),
});
const add = (amount: Amount, unpaid: number) => {
  amount.count++;
  amount.paise += unpaid;
};

/** The unpaid part of each instalment falling due by the month's end, with its learner's latest pause. */
function openInstalments(db: Db, today: string) {
  return db
    .selectFrom("instalment")
    .innerJoin("enrolment", "enrolment.id", "instalment.enrolmentId")
    .select((eb) => [
      "instalment.id",
      "instalment.enrolmentId",
      "instalment.number",
      "instalment.dueDate",
      "instalment.totalPaise",
      "enrolment.batchId",
      "enrolment.learnerId",
      eb.fn
        .coalesce(
          eb
            .selectFrom("payment")
            .select((p) => p.fn.sum<number | string>("payment.amountPaise").as("paid"))
            .whereRef("payment.instalmentId", "=", "instalment.id"),
          eb.lit(0),
        )
        .as("paidPaise"),
      eb
        .selectFrom("fee_pause")
        .select((p) => p.fn.max("fee_pause.until").as("until"))
        .whereRef("fee_pause.enrolmentId", "=", "instalment.enrolmentId")
        .where("fee_pause.until", ">=", today)
        .as("pausedUntil"),
    ])
    .where("instalment.dueDate", "<=", monthEnd(today))
    .where("instalment.waivedAt", "is", null);
}

interface OpenInstalment {
  dueDate: string;
  totalPaise: number | string;
  paidPaise: number | string;
  pausedUntil: string | null;
}

/** What one instalment is today: its state, what is unpaid and how long overdue. */
function standing(row: OpenInstalment, today: string) {
  const totalPaise = paise(row.totalPaise);
  const paidPaise = paise(row.paidPaise);
  const state: InstalmentState = instalmentState(
    { dueDate: row.dueDate, totalPaise },
    paidPaise,
    today,
    row.pausedUntil ? { until: row.pausedUntil } : null,
    false,
  );
  return { state, totalPaise, paidPaise, unpaid: totalPaise - paidPaise, daysPastDue: daysBetween(row.dueDate, today) };
}

function count(into: Receivables, row: OpenInstalment, today: string): void {
  const { state, unpaid, daysPastDue } = standing(row, today);
  if (state === "paid") return;
  into.open++;
  if (state === "paused") return add(into.paused, unpaid);
  if (row.dueDate.slice(0, 7) === today.slice(0, 7)) add(into.dueThisMonth, unpaid);
  if (state !== "overdue") return;
  add(into.overdue[ageingBucket(daysPastDue)], unpaid);
  add(into.overdue.total, unpaid);
}

/**
 * Instalments read per statement: a page in the (dueDate, id) index, a millisecond or two on
 * SQLite, whose statements hold the event loop while they run.
 */
const instalmentPageSize = 250;

interface PageKey {
  dueDate: string;
  id: string;
}

/** Open instalments after `after` in (dueDate, id) order: one page of `read`'s rows at a time. */
function afterKey(after: PageKey | null) {
  return after === null
    ? sql<SqlBool>`true`
    : sql<SqlBool>`("instalment"."dueDate", "instalment"."id") > (${after.dueDate}, ${after.id})`;
}

/** Pages of rows until one comes back short, with a turn of the event loop between pages. */
async function* keysetPages<Row extends PageKey>(read: (after: PageKey | null) => Promise<Row[]>, pageSize: number) {
  let after: PageKey | null = null;
  for (;;) {
    const rows: Row[] = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    after = rows.at(-1)!;
    await yieldToEventLoop();
  }
}

/** Every open instalment falling due by the month's end, by due date, a page at a time. */
function openInstalmentPages(db: Db, today: string, pageSize: number) {
  return keysetPages(
    (after) =>
      openInstalments(db, today)
        .where(afterKey(after))
        .orderBy("instalment.dueDate")
        .orderBy("instalment.id")
        .limit(pageSize)
        .execute(),
    pageSize,
  );
}

/** The same pages with the learner and batch each instalment belongs to: the CSV's rows. */
function openInstalmentPagesWithNames(db: Db, today: string, pageSize: number) {
  return keysetPages(
    (after) =>
      openInstalments(db, today)
        .innerJoin("batch", "batch.id", "enrolment.batchId")
        .innerJoin("user", "user.id", "enrolment.learnerId")
        .select(["user.username", "user.name", "user.email", "batch.name as batchName", "batch.course"])
        .where(afterKey(after))
        .orderBy("instalment.dueDate")
        .orderBy("instalment.id")
        .limit(pageSize)
        .execute(),
    pageSize,
  );
}

/** Receivables per batch (batches with nothing open are left out) and for all of them. */
export async function receivables(
  db: Db,
  today: string,
  pageSize = instalmentPageSize,
): Promise<{ today: string; batches: BatchReceivables[]; all: Receivables }> {
  const batches = await db
    .selectFrom("batch")
    .leftJoin("course", "course.slug", "batch.courseSlug")
    .select(["batch.id", "batch.name", "batch.course", "batch.termsId", "course.termsId as courseTermsId"])
    .orderBy("batch.course")
    .orderBy("batch.endDate", "desc")
    .execute();
  const all = empty();
  const byBatch = new Map<string, Receivables>();
  for await (const rows of openInstalmentPages(db, today, pageSize)) {
    for (const row of rows) {
      let into = byBatch.get(row.batchId);
      if (!into) byBatch.set(row.batchId, (into = empty()));
      count(into, row, today);
      count(all, row, today);
    }
  }
  return {
    today,
    batches: batches.flatMap(({ termsId, courseTermsId, ...batch }) => {
      const r = byBatch.get(batch.id);
      return r && r.open > 0 ? [{ ...batch, termsSource: termsSourceOf(termsId, courseTermsId ?? null), ...r }] : [];
    }),
    all,
  };
}

// ---- The CSV -------------------------------------------------------------------------------

export const feesColumns = [
  { key: "learner", header: "learner" },
  { key: "email", header: "email" },
  { key: "batch", header: "batch" },
  { key: "course", header: "course" },
  { key: "instalment", header: "instalment" },
  { key: "dueDate", header: "due date" },
  { key: "total", header: "total (₹)" },
  { key: "paid", header: "paid (₹)" },
  { key: "unpaid", header: "unpaid (₹)" },
  { key: "state", header: "state" },
  { key: "daysPastDue", header: "days past due" },
  { key: "ageing", header: "ageing" },
] as const;

/** Paise as a plain decimal a spreadsheet reads as a number: 1234550 → "12345.50". */
export function rupeesCell(amount: number): string {
  const fraction = amount % 100;
  return `${(amount - fraction) / 100}.${String(fraction).padStart(2, "0")}`;
}

const stateWords: Record<InstalmentState, string> = {
  upcoming: "upcoming",
  due: "due",
  overdue: "overdue",
  paid: "paid",
  paused: "paused",
  waived: "waived",
};

/** Every open instalment falling due by the month's end, by due date, a keyset page at a time. */
export async function* feeRecords(db: Db, today: string, pageSize = instalmentPageSize) {
  for await (const rows of openInstalmentPagesWithNames(db, today, pageSize)) {
    for (const row of rows) {
      const { state, totalPaise, paidPaise, unpaid, daysPastDue } = standing(row, today);
      if (state === "paid") continue;
      const overdue = state === "overdue";
      yield {
        learner: row.username || row.name,
        email: row.email,
        batch: row.batchName,
        course: row.course,
        instalment: row.number,
        dueDate: row.dueDate,
        total: rupeesCell(totalPaise),
        paid: rupeesCell(paidPaise),
        unpaid: rupeesCell(unpaid),
        state: stateWords[state],
        daysPastDue: overdue ? daysPastDue : "",
        ageing: overdue ? (ageingBuckets.find((b) => b.key === ageingBucket(daysPastDue))?.label ?? "") : "",
      };
    }
  }
}
