import { sql } from "kysely";
import { personName } from "~/accounts/person-name";
import type { Db } from "~/db/database.server";
import { workAndTalk } from "./learner-view.server";
import { overdueStatuses, waitingStatuses } from "./statuses";

// What trainers read: the queue of submissions waiting for review (oldest first), what is
// overdue, and per assignment the matrix of its learners and their statuses.

/** The queue's filter, from the URL: a batch id, "mine" (the trainer's own batches) or "all". */
export interface ReviewFilter {
  batch: string;
  assignmentId: string;
  staffId: string;
}

/** How many waiting submissions, and overdue learners, the page lists. */
const listed = 50;

function scoped(db: Db, filter: ReviewFilter) {
  let query = db
    .selectFrom("learner_assignment")
    .innerJoin("assignment", "assignment.id", "learner_assignment.assignmentId")
    .innerJoin("user", "user.id", "learner_assignment.learnerId")
    .leftJoin("batch", "batch.id", "assignment.batchId");
  if (filter.assignmentId) query = query.where("assignment.id", "=", filter.assignmentId);
  if (filter.batch === "mine") {
    query = query.where("assignment.batchId", "in", (eb) =>
      eb
        .selectFrom("batch_trainer")
        .select("batch_trainer.batchId")
        .where("batch_trainer.staffId", "=", filter.staffId),
    );
  } else if (filter.batch !== "all" && filter.batch !== "") {
    query = query.where("assignment.batchId", "=", filter.batch);
  }
  return query;
}

const columns = [
  "learner_assignment.assignmentId",
  "learner_assignment.learnerId",
  "learner_assignment.status",
  "learner_assignment.submittedAt",
  "assignment.title",
  "assignment.dueAt",
  "assignment.points as maxPoints",
  "assignment.handIn",
  "batch.name as batch",
  "user.username",
  "user.name",
  "user.email",
] as const;

export async function reviewQueue(db: Db, filter: ReviewFilter, now = new Date()) {
  const nowIso = now.toISOString();
  const [waitingRows, waitingCount, overdueRows, overdueCount] = await Promise.all([
    scoped(db, filter)
      .select([...columns])
      .where("learner_assignment.status", "in", [...waitingStatuses])
      .orderBy("learner_assignment.submittedAt")
      .orderBy("learner_assignment.learnerId")
      .limit(listed)
      .execute(),
    scoped(db, filter)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("learner_assignment.status", "in", [...waitingStatuses])
      .executeTakeFirstOrThrow(),
    scoped(db, filter)
      .select([...columns])
      .where("learner_assignment.status", "in", [...overdueStatuses])
      .where("assignment.dueAt", "<", nowIso)
      .orderBy("assignment.dueAt")
      .orderBy("learner_assignment.learnerId")
      .limit(listed)
      .execute(),
    scoped(db, filter)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("learner_assignment.status", "in", [...overdueStatuses])
      .where("assignment.dueAt", "<", nowIso)
      .executeTakeFirstOrThrow(),
  ]);
  // The first waiting submission is the one on screen: its work and conversation in full.
  const first = waitingRows[0];
  const detail = first ? await workAndTalk(db, [first]) : null;
  const view = (row: (typeof waitingRows)[number]) => ({
    assignmentId: row.assignmentId,
    learnerId: row.learnerId,
    learner: personName(row),
    email: row.email,
    status: row.status,
    submittedAt: row.submittedAt,
    title: row.title,
    dueAt: row.dueAt,
    maxPoints: row.maxPoints === null ? null : Number(row.maxPoints),
    handIn: row.handIn,
    batch: row.batch,
  });
  return {
    waiting: waitingRows.map(view),
    waitingCount: Number(waitingCount.n),
    overdue: overdueRows.map(view),
    overdueCount: Number(overdueCount.n),
    current: first
      ? {
          ...view(first),
          submissions: detail?.submissions.get(`${first.assignmentId}:${first.learnerId}`) ?? [],
          comments: detail?.comments.get(`${first.assignmentId}:${first.learnerId}`) ?? [],
        }
      : null,
  };
}

/** The filters' choices: batches (the trainer's own marked) and the assignments of the chosen batch. */
export async function reviewChoices(db: Db, filter: ReviewFilter) {
  const [batches, mine, assignments] = await Promise.all([
    db.selectFrom("batch").select(["id", "name"]).orderBy("startDate", "desc").orderBy("id").limit(500).execute(),
    db.selectFrom("batch_trainer").select("batchId").where("staffId", "=", filter.staffId).execute(),
    db
      .selectFrom("assignment")
      .select(["id", "title", "dueAt"])
      .$if(filter.batch !== "all" && filter.batch !== "mine" && filter.batch !== "", (q) =>
        q.where("batchId", "=", filter.batch),
      )
      .$if(filter.batch === "mine", (q) =>
        q.where("batchId", "in", (eb) =>
          eb
            .selectFrom("batch_trainer")
            .select("batch_trainer.batchId")
            .where("batch_trainer.staffId", "=", filter.staffId),
        ),
      )
      .orderBy("dueAt", "desc")
      .orderBy("id")
      .limit(500)
      .execute(),
  ]);
  return { batches, myBatchIds: mine.map((row) => row.batchId), assignments };
}

/** One assignment's learners and their statuses, by name (the matrix and its CSV). */
export async function assignmentMatrix(db: Db, assignmentId: string) {
  const assignment = await db
    .selectFrom("assignment")
    .leftJoin("batch", "batch.id", "assignment.batchId")
    .select([
      "assignment.id",
      "assignment.title",
      "assignment.dueAt",
      "assignment.points as maxPoints",
      "assignment.handIn",
      "assignment.batchId",
      "batch.name as batch",
    ])
    .where("assignment.id", "=", assignmentId)
    .executeTakeFirst();
  if (!assignment) return null;
  const rows = await db
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
    .orderBy("user.id")
    .execute();
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
