import { sql, type ExpressionBuilder } from "kysely";
import type { Db } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { messageKinds, perKind, type MessageKind } from "~/messages/kinds";
import { profileFieldNames, type ProfileField } from "~/accounts/sign-up-schema";
import { learnerResumePath } from "~/uploads/upload-paths";
import { photoUrl } from "~/uploads/photos.server";
import { countLearners, isLearner, learnerWhere } from "~/learners/learner-filter.server";
import type { FilterClock, LearnerFilter } from "~/learners/learner-filter";
import { learnerCountCap, pageSizes, type LearnerCard, type LearnerPage, type LearnerSummary } from "./staff-types";
import { sortTerms } from "./learner-sort.server";
import { defaultSort, type SortDirection, type SortKey } from "./workspace-query";

export interface PageOptions {
  pageSize?: number;
  sort?: { key: SortKey; dir: SortDirection };
  clock?: FilterClock;
  /**
   * The count found no more than `learnerCountCap` learners matching: they are read first, all of
   * them, the way the count read them (on the filter's own index), and then sorted. Read in the
   * order of the sort's index instead, a page of a few matching learners comes only after reading
   * nearly every learner (a search for a rare name, a small batch).
   */
  few?: boolean;
}

/** What the sorts read of a learner's row (sortTerms). */
const sortedColumns = [
  "user.id",
  "user.username",
  "user.course",
  "user.phone",
  "user.createdAt",
  "user.lastActiveAt",
  "user.hasResume",
  "user.unreadCount",
  "user.firstBatch",
  "user.overdueCount",
] as const;

/**
 * The ids of one page in the chosen order (newest first by default), and the first of the next
 * page when there is one: the learner rows alone, read in the order of the sort's index, or for
 * a few, sorted once read (exported so that a test can check its plan).
 */
export function pageIdsQuery(db: Db, filter: LearnerFilter, offset: number, options: PageOptions = {}) {
  const { pageSize = pageSizes[0], sort = defaultSort, clock, few = false } = options;
  // Sorted by activity, the activity index gives the order and the inactive ones in one range.
  const all = db
    .selectFrom("user")
    .select("user.id")
    .where(learnerWhere(filter, clock, { broad: sort.key !== "active" }));
  // Each step materialized, so that neither database folds it back into a read of the sort's
  // index: the matching ids as the count found them, then their rows by id, then the page.
  let query = few
    ? (db
        .with(
          (cte) => cte("matchingIds").materialized(),
          (q) =>
            q
              .selectFrom("user")
              .select("user.id")
              .where(learnerWhere(filter, clock))
              .limit(sql.lit(learnerCountCap + 1)),
        )
        .with(
          (cte) => cte("matching").materialized(),
          (q) =>
            q
              .selectFrom("user")
              .select(sortedColumns)
              .where("user.id", "in", (eb) => eb.selectFrom("matchingIds").select("matchingIds.id")),
        )
        .selectFrom("matching as user")
        .select("user.id") as unknown as typeof all)
    : all;
  for (const [term, dir] of sortTerms(sort.key, sort.dir)) {
    query = query.orderBy(term as never, dir);
  }
  return query.limit(pageSize + 1).offset(offset);
}

/**
 * The rows of that page with what their cards show. The page is chosen first, so the counts
 * and photo are read for its rows only, whichever plan the filter gets (exported so that a test
 * can check its plan).
 */
export function pageQuery(db: Db, filter: LearnerFilter, offset: number, options: PageOptions = {}) {
  const { sort = defaultSort } = options;
  let query = summaryQuery(db).where("user.id", "in", pageIdsQuery(db, filter, offset, options));
  for (const [term, dir] of sortTerms(sort.key, sort.dir)) {
    query = query.orderBy(term as never, dir);
  }
  return query;
}

/** The distinct-course query (exported so that a test can check its plan). */
export const coursesQuery = sql<{ course: string | null }>`
    with recursive courses(course) as (
      select min("course") from "user" where coalesce("role", '') = '' and "course" > ''
      union all
      select (select min("course") from "user" where coalesce("role", '') = '' and "course" > courses.course)
      from courses where courses.course is not null
    )
    select course from courses where course is not null`;

/**
 * One page of learners, newest first, with what their cards show. The total is exact up to
 * `learnerCountCap` (or always, with `exactCount`, as the bulk-send confirmation asks).
 */
export async function searchLearners(
  db: Db,
  filter: LearnerFilter,
  page: number,
  { exactCount = false, ...options }: PageOptions & { exactCount?: boolean } = {},
): Promise<LearnerPage> {
  const pageSize = options.pageSize ?? pageSizes[0];
  const counted = await countLearners(db, filter, exactCount ? undefined : learnerCountCap, options.clock);
  // No match: skip the page query, which would otherwise walk the whole index looking for one.
  if (counted === 0) return { learners: [], total: 0, page: 1, pages: 1, hasNext: false, pageSize };
  let total: number | null = exactCount || counted <= learnerCountCap ? counted : null;
  const lastPage = (count: number) => Math.max(1, Math.ceil(count / pageSize));
  let current = Math.max(1, total === null ? page : Math.min(page, lastPage(total)));
  const few = counted <= learnerCountCap;
  let rows = await pageQuery(db, filter, (current - 1) * pageSize, { ...options, few }).execute();
  if (rows.length === 0) {
    // A page past the end of a list too long to count: count it once and show its last page.
    total = await countLearners(db, filter, undefined, options.clock);
    current = lastPage(total);
    rows = await pageQuery(db, filter, (current - 1) * pageSize, { ...options, few }).execute();
  }
  const shown = rows.slice(0, pageSize);
  const batches = await batchNames(
    db,
    shown.map((row) => row.id),
  );
  return {
    learners: shown.map((row) => toSummary(row, batches.get(row.id))),
    total,
    page: current,
    pages: total === null ? null : lastPage(total),
    hasNext: rows.length > pageSize,
    pageSize: pageSize,
  };
}

/** One learner's whole card (their page, and the workspace's expanded card); null for a non-learner. */
export async function learnerCard(db: Db, learnerId: string): Promise<LearnerCard | null> {
  const row = await summaryQuery(db)
    .select(["user.email", "user.createdAt", ...profileFieldNames.map((name) => `user.${name}` as const)])
    .where("user.id", "=", learnerId)
    .where(isLearner)
    .executeTakeFirst();
  if (!row) return null;
  const [links, resume, batches] = await Promise.all([
    db
      .selectFrom("task_link")
      .select(["id", "link", "createdAt"])
      .where("learnerId", "=", row.id)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .execute(),
    db.selectFrom("resume").select(["fileName", "uploadedAt"]).where("learnerId", "=", row.id).executeTakeFirst(),
    batchNames(db, [row.id]),
  ]);
  const profile = Object.fromEntries(profileFieldNames.map((name) => [name, row[name] ?? ""])) as Record<
    ProfileField,
    string
  >;
  return {
    ...profile,
    ...toSummary(row, batches.get(row.id)),
    email: row.email,
    createdAt: new Date(row.createdAt).toISOString(),
    taskLinks: links.map((l) => ({ id: l.id, link: l.link, createdAt: l.createdAt })),
    resume: resume
      ? { fileName: resume.fileName, uploadedAt: resume.uploadedAt, url: learnerResumePath(row.id) }
      : null,
  };
}

/**
 * The distinct courses present among learners. A loose index scan written as a recursive query:
 * each step seeks the next course in the course index, so it costs one seek per course instead
 * of reading every learner (neither database skips through an index on its own for this).
 */
export async function learnerCourses(db: Db): Promise<string[]> {
  const result = await coursesQuery.execute(db);
  return result.rows.map((r) => r.course).filter((c): c is string => c !== null);
}

/**
 * What a collapsed card shows, read with the learner's row: name, course, photo and the count of
 * each kind of message (correlated subqueries on the photo's key and the message index, so a
 * page is one statement).
 */
function summaryQuery(db: Db) {
  return db
    .selectFrom("user")
    .select((eb) => [
      "user.id",
      "user.name",
      "user.username",
      "user.course",
      "user.phone",
      "user.createdAt",
      "user.lastActiveAt",
      "user.hasResume",
      "user.unreadCount as unread",
      "user.overdueCount as overdue",
      eb
        .selectFrom("profile_photo")
        .select("profile_photo.storageKey")
        .whereRef("profile_photo.learnerId", "=", "user.id")
        .as("photoKey"),
      ...messageKinds.map((kind) => messageCount(eb, kind).as(countColumn(kind))),
    ]);
}

function messageCount(eb: ExpressionBuilder<Database, "user">, kind: MessageKind) {
  return eb
    .selectFrom("message")
    .select((m) => m.fn.countAll<number | string>().as("n"))
    .whereRef("message.learnerId", "=", "user.id")
    .where("message.kind", "=", sql.lit(kind)); // a literal: one of three fixed kinds, and SQLite plans it better
}

/** The column of a kind's count in a summary row. */
const countColumn = <Kind extends MessageKind>(kind: Kind) => `${kind}Count` as const;

type SummaryRow = {
  id: string;
  name: string;
  username: string | null;
  course: string | null;
  phone: string | null;
  createdAt: string | Date;
  lastActiveAt: string | null;
  hasResume: number | string;
  unread: number | string;
  overdue: number | string;
  photoKey: string | null;
} & Record<ReturnType<typeof countColumn<MessageKind>>, number | string | null>;

function toSummary(row: SummaryRow, batches: string[] = []): LearnerSummary {
  return {
    id: row.id,
    username: row.username || row.name,
    course: row.course ?? "",
    photoUrl: row.photoKey ? photoUrl(row.photoKey) : null,
    counts: perKind(messageKinds, (kind) => Number(row[countColumn(kind)])),
    phone: row.phone ?? "",
    createdAt: new Date(row.createdAt).toISOString(),
    lastActiveAt: row.lastActiveAt,
    hasResume: Number(row.hasResume) === 1,
    unread: Number(row.unread),
    overdue: Number(row.overdue),
    batches,
  };
}

/** The names of the batches each of these learners is enrolled in, by learner, A to Z. */
async function batchNames(db: Db, learnerIds: string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  if (learnerIds.length === 0) return names;
  const rows = await db
    .selectFrom("enrolment")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .select(["enrolment.learnerId", "batch.name"])
    .where("enrolment.learnerId", "in", learnerIds)
    .orderBy("batch.name")
    .execute();
  for (const row of rows) names.set(row.learnerId, [...(names.get(row.learnerId) ?? []), row.name]);
  return names;
}

/** Every batch by name, with its course (the batch filter's and bulk enrolment's choices). */
export async function batchChoices(db: Db): Promise<{ id: string; name: string; course: string }[]> {
  return db.selectFrom("batch").select(["id", "name", "course"]).orderBy("name").orderBy("id").execute();
}
