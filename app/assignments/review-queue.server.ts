import { sql, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import { personName } from "~/accounts/person-name";
import type { Db } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { isOneBatch, queueCountedUpTo } from "./assignment-rules";
import { workAndTalk } from "./learner-view.server";
import { overdueStatuses, waitingStatuses, type AssignmentStatus, type HandIn } from "./statuses";

// What trainers read: the queue of submissions waiting for review (oldest first), what is
// overdue, and per assignment the matrix of its learners and their statuses.

/**
 * The queue's filter: from the URL a batch id, "mine" (the trainer's own batches) or "all", and
 * an assignment; with the trainer's batches, read once per view.
 */
export interface ReviewFilter {
  batch: string;
  assignmentId: string;
  myBatchIds: readonly string[];
}

/** How many waiting submissions, and overdue learners, the page lists. */
const listed = 50;

/** A learner's assignment in one of these statuses, written as SQL literals (see below). */
const statusIn = (statuses: readonly AssignmentStatus[]) =>
  sql<SqlBool>`"learner_assignment"."status" in (${sql.join(statuses.map((status) => sql.lit(status)))})`;
// Literals, not parameters: these are the conditions of the partial indexes that hold each list
// in its order (migration 0049), and neither database matches a parameter against them.
const isWaiting = statusIn(waitingStatuses);
const isOpen = statusIn(overdueStatuses);

/**
 * The batch part of the filter: one batch, the trainer's batches ("mine", by their ids: a
 * subquery of them leads PostgreSQL to read every assignment), or none (null: all).
 */
function batchScope(filter: ReviewFilter) {
  if (filter.batch === "all" || filter.batch === "") return null;
  const batchIds = filter.batch === "mine" ? filter.myBatchIds : [filter.batch];
  return (eb: ExpressionBuilder<Database, "assignment">) =>
    batchIds.length === 0 ? sql<SqlBool>`1 = 0` : eb("assignment.batchId", "in", batchIds);
}

/**
 * The learners' assignments waiting for review that the filter keeps, read on their own table
 * (a batch only as the set of its assignments' ids): no learner or batch is joined to count them
 * or to find the page's keys.
 */
function waitingRows(db: Db, filter: ReviewFilter) {
  const inBatch = batchScope(filter);
  return db
    .selectFrom("learner_assignment")
    .where(isWaiting)
    .$if(filter.assignmentId !== "", (query) =>
      query.where("learner_assignment.assignmentId", "=", filter.assignmentId),
    )
    .$if(inBatch !== null, (query) =>
      query.where("learner_assignment.assignmentId", "in", (eb) =>
        eb.selectFrom("assignment").select("assignment.id").where(inBatch!),
      ),
    );
}

/**
 * The learners' assignments not handed in (or sent back) past the due date, with their assignment.
 * A cross join so that SQLite reads the assignments first (it keeps a cross join's order), by due
 * date or by batch, and of each only its open rows: the list stops at its 50th, and the count
 * reads no assignment still open. Without statistics it would read every open row instead.
 * PostgreSQL plans it as the inner join it is.
 */
function overdueRows(db: Db, filter: ReviewFilter, nowIso: string) {
  const inBatch = batchScope(filter);
  return db
    .selectFrom("assignment")
    .crossJoin("learner_assignment")
    .whereRef("learner_assignment.assignmentId", "=", "assignment.id")
    .where(isOpen)
    .where("assignment.dueAt", "<", nowIso)
    .$if(filter.assignmentId !== "", (query) => query.where("assignment.id", "=", filter.assignmentId))
    .$if(inBatch !== null, (query) => query.where(inBatch!));
}

interface QueueKey {
  assignmentId: string;
  learnerId: string;
  status: AssignmentStatus;
  submittedAt: string | null;
}

/** A row of the queue or of the overdue list, as the page shows it. */
interface QueueRow extends QueueKey {
  learner: string;
  email: string;
  title: string;
  dueAt: string;
  maxPoints: number | null;
  handIn: HandIn;
  batch: string | null;
}

/** Assignments with what the queue and the matrix show of them, and their batch's name. */
function assignmentsWithBatch(db: Db) {
  return db
    .selectFrom("assignment")
    .leftJoin("batch", "batch.id", "assignment.batchId")
    .select([
      "assignment.id",
      "assignment.title",
      "assignment.dueAt",
      "assignment.points as maxPoints",
      "assignment.handIn",
      "batch.name as batch",
    ]);
}

/**
 * The listed rows' learners, assignments and batches, read for these keys only; returns what
 * turns a list of those keys into the page's rows.
 */
async function describe(db: Db, keys: readonly QueueKey[]): Promise<(list: readonly QueueKey[]) => QueueRow[]> {
  const assignmentIds = [...new Set(keys.map((key) => key.assignmentId))];
  const learnerIds = [...new Set(keys.map((key) => key.learnerId))];
  if (keys.length === 0) return () => [];
  const [assignments, learners] = await Promise.all([
    assignmentsWithBatch(db).where("assignment.id", "in", assignmentIds).execute(),
    db
      .selectFrom("user")
      .select(["user.id", "user.username", "user.name", "user.email"])
      .where("user.id", "in", learnerIds)
      .execute(),
  ]);
  const assignmentById = new Map(assignments.map((row) => [row.id, row]));
  const learnerById = new Map(learners.map((row) => [row.id, row]));
  // A learner or assignment deleted between the two reads takes its rows with it (foreign keys
  // cascade): those keys are left out, as a join would have.
  return (list: readonly QueueKey[]) =>
    list.flatMap((key) => {
      const assignment = assignmentById.get(key.assignmentId);
      const learner = learnerById.get(key.learnerId);
      if (!assignment || !learner) return [];
      return [
        {
          assignmentId: key.assignmentId,
          learnerId: key.learnerId,
          learner: personName(learner),
          email: learner.email,
          status: key.status,
          submittedAt: key.submittedAt,
          title: assignment.title,
          dueAt: assignment.dueAt,
          maxPoints: assignment.maxPoints === null ? null : Number(assignment.maxPoints),
          handIn: assignment.handIn,
          batch: assignment.batch,
        },
      ];
    });
}

const keyColumns = [
  "learner_assignment.assignmentId",
  "learner_assignment.learnerId",
  "learner_assignment.status",
  "learner_assignment.submittedAt",
] as const;

/** How many rows `rows` has, counted up to one past `countedUpTo` (which says "more"). */
function countUpTo(db: Db, rows: SelectQueryBuilder<Database, never, object>, countedUpTo: number) {
  return db
    .selectFrom(
      rows
        .select(sql.lit(1).as("one"))
        .limit(countedUpTo + 1)
        .as("counted"),
    )
    .select((eb) => eb.fn.countAll<number | string>().as("n"));
}

/**
 * The queue's reads of its keys and counts: the waiting oldest hand-in first, the overdue
 * earliest due date first, each of the page's 50 and how many in all, up to `countedUpTo` and
 * one more.
 */
export function queueReads(db: Db, filter: ReviewFilter, now: Date, countedUpTo = queueCountedUpTo) {
  const nowIso = now.toISOString();
  return {
    waitingKeys: waitingRows(db, filter)
      .select([...keyColumns])
      .orderBy("learner_assignment.submittedAt")
      .orderBy("learner_assignment.learnerId")
      .orderBy("learner_assignment.assignmentId")
      .limit(listed),
    waitingCount: countUpTo(db, waitingRows(db, filter), countedUpTo),
    overdueKeys: overdueRows(db, filter, nowIso)
      .select([...keyColumns])
      .orderBy("assignment.dueAt")
      .orderBy("learner_assignment.learnerId")
      .orderBy("learner_assignment.assignmentId")
      .limit(listed),
    overdueCount: countUpTo(db, overdueRows(db, filter, nowIso), countedUpTo),
  };
}

export async function reviewQueue(db: Db, filter: ReviewFilter, now = new Date()) {
  const reads = queueReads(db, filter, now);
  const [waitingKeys, waitingCount, overdueKeys, overdueCount] = await Promise.all([
    reads.waitingKeys.execute(),
    reads.waitingCount.executeTakeFirstOrThrow(),
    reads.overdueKeys.execute(),
    reads.overdueCount.executeTakeFirstOrThrow(),
  ]);
  // One read of the learners and assignments for both lists.
  const rowsOf = await describe(db, [...waitingKeys, ...overdueKeys]);
  const waiting = rowsOf(waitingKeys);
  const overdue = rowsOf(overdueKeys);
  // The first waiting submission is the one on screen: its work and conversation in full.
  const first = waiting[0];
  const detail = first ? await workAndTalk(db, [first]) : null;
  return {
    waiting,
    waitingCount: Number(waitingCount.n),
    overdue,
    overdueCount: Number(overdueCount.n),
    current: first
      ? {
          ...first,
          submissions: detail?.submissions.get(`${first.assignmentId}:${first.learnerId}`) ?? [],
          comments: detail?.comments.get(`${first.assignmentId}:${first.learnerId}`) ?? [],
        }
      : null,
  };
}

/**
 * The filters' choices: batches (the trainer's own marked) and, for one chosen batch, its
 * assignments. Across several batches the titles repeat ("Exercise 1" in each) and run to
 * hundreds, so there only the assignment already chosen (a link from its page) is offered.
 */
export async function reviewChoices(db: Db, filter: ReviewFilter) {
  const assignments = db.selectFrom("assignment").select(["id", "title", "dueAt"]);
  const [batches, choices] = await Promise.all([
    db.selectFrom("batch").select(["id", "name"]).orderBy("startDate", "desc").orderBy("id").limit(500).execute(),
    isOneBatch(filter.batch)
      ? assignments.where("batchId", "=", filter.batch).orderBy("dueAt", "desc").orderBy("id").limit(500).execute()
      : filter.assignmentId
        ? assignments.where("id", "=", filter.assignmentId).execute()
        : [],
  ]);
  return { batches, assignments: choices };
}

/** The matrix's rows: the assignment's learners (by its key) with their names, in name order. */
export function matrixRows(db: Db, assignmentId: string) {
  return db
    .selectFrom("learner_assignment")
    .innerJoin("user", "user.id", "learner_assignment.learnerId")
    .select([
      "learner_assignment.learnerId",
      "learner_assignment.status",
      "learner_assignment.points",
      "learner_assignment.submittedAt",
      "learner_assignment.reviewedAt",
      "user.username",
      "user.name",
      "user.email",
    ])
    .where("learner_assignment.assignmentId", "=", assignmentId)
    .orderBy(sql`lower(coalesce(nullif("user"."username", ''), "user"."email"))`)
    .orderBy("user.id");
}

/** One assignment's learners and their statuses, by name (the matrix and its CSV). */
export async function assignmentMatrix(db: Db, assignmentId: string) {
  const assignment = await assignmentsWithBatch(db)
    .select("assignment.batchId")
    .where("assignment.id", "=", assignmentId)
    .executeTakeFirst();
  if (!assignment) return null;
  const rows = await matrixRows(db, assignmentId).execute();
  return {
    assignment: { ...assignment, maxPoints: assignment.maxPoints === null ? null : Number(assignment.maxPoints) },
    learners: rows.map((row) => ({
      learnerId: row.learnerId,
      name: personName(row),
      email: row.email,
      status: row.status,
      points: row.points === null ? null : Number(row.points),
      submittedAt: row.submittedAt,
      reviewedAt: row.reviewedAt,
    })),
  };
}
