// The learning loop's data for bench/assignments.ts: batches of learners, each batch with its
// assignments, every learner's status on each, their hand-ins, the trainer's comments and the
// task message each assignment sent, written in batched inserts (as create-assignment, the
// hand-ins and the reviews would have left them, without going through them one by one).
import { randomUUID } from "node:crypto";
import type { Insertable } from "kysely";
import "../scripts/app-module-hooks.ts";
import type { BenchHandle } from "./placement-data.ts";

const { seededRandom } = await import("~/core/seeded-random");
const { seedLearners } = await import("~/staff/seed.server");
const { isLearner } = await import("~/learners/learner-filter.server");

type Db = BenchHandle["db"];
type Rows<T extends keyof import("~/db/schema").Database> = Insertable<import("~/db/schema").Database[T]>[];

export interface LoopSize {
  batches: number;
  learners: number;
  assignmentsPerBatch: number;
}

/** Rows per insert statement: under SQLite's and PostgreSQL's bound-parameter limits for these tables. */
const chunk = 500;

async function insertAll<
  T extends
    | "batch"
    | "batch_trainer"
    | "enrolment"
    | "assignment"
    | "learner_assignment"
    | "submission"
    | "assignment_comment"
    | "message",
>(db: Db, table: T, rows: Rows<T>) {
  for (let i = 0; i < rows.length; i += chunk) {
    // Kysely's insert types are per table; the rows were built for this one.
    await db
      .insertInto(table)
      .values(rows.slice(i, i + chunk) as never)
      .execute();
  }
}

/**
 * Seeds `size` around the learners already there (signed up over HTTP: they come first, so the
 * bench's sessions are enrolled) and makes `trainerId` the trainer of the first `trainerBatches`
 * batches. Returns an assignment of the trainer's first batch (its matrix is measured).
 */
export async function seedLearningLoop(
  handle: BenchHandle,
  size: LoopSize,
  people: { trainerId: string; trainerBatches: number; first: string[] },
  now = new Date(),
): Promise<{ assignmentId: string; rows: Record<string, number> }> {
  const db = handle.db;
  const random = seededRandom(20261126, "b");
  const have = Number(
    (
      await db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where(isLearner)
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (have < size.learners) await seedLearners(db, { learners: size.learners - have });
  const others = (await db.selectFrom("user").select("id").where(isLearner).orderBy("id").execute())
    .map((row) => row.id)
    .filter((id) => !people.first.includes(id));
  const learnerIds = [...people.first, ...others].slice(0, size.learners);
  const courses = await db.selectFrom("course").select(["slug", "title"]).orderBy("position").execute();
  const at = now.toISOString();
  const day = 86_400_000;
  const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  const batches: Rows<"batch"> = [];
  const trainers: Rows<"batch_trainer"> = [];
  const enrolments: Rows<"enrolment"> = [];
  const assignments: Rows<"assignment"> = [];
  for (let b = 0; b < size.batches; b++) {
    const course = courses[b % courses.length]!;
    const id = randomUUID();
    batches.push({
      id,
      name: `${course.title} – bench ${b + 1}`,
      course: course.title,
      courseSlug: course.slug,
      schedule: "Mon–Fri 6–8 pm",
      startDate: isoDay(now.getTime() - 60 * day),
      endDate: isoDay(now.getTime() + 30 * day),
      payment: "upfront",
      termsId: null,
      createdAt: at,
    });
    if (b < people.trainerBatches) trainers.push({ batchId: id, staffId: people.trainerId, createdAt: at });
    for (let a = 0; a < size.assignmentsPerBatch; a++) {
      // Due dates spread from 50 days ago to 20 days ahead: most are past, some still open.
      const dueAt = new Date(now.getTime() + Math.round((-50 + (70 * a) / size.assignmentsPerBatch) * day));
      assignments.push({
        id: randomUUID(),
        batchId: id,
        title: `Exercise ${a + 1}`,
        instructions: `<p>Exercise ${a + 1}: hand in the repository link.</p>`,
        dueAt: dueAt.toISOString(),
        handIn: "link",
        points: a % 2 === 0 ? 10 : null,
        createdBy: people.trainerId,
        createdByName: "Bench Trainer",
        createdAt: new Date(dueAt.getTime() - 7 * day).toISOString(),
      });
    }
  }
  const batchOf = (i: number) => i % size.batches;
  learnerIds.forEach((learnerId, i) =>
    enrolments.push({
      id: randomUUID(),
      batchId: batches[batchOf(i)]!.id!,
      learnerId,
      seeking: 1,
      graduation: "in-progress",
      seekingAtGraduation: null,
      createdAt: at,
    }),
  );
  await insertAll(db, "batch", batches);
  await insertAll(db, "batch_trainer", trainers);
  await insertAll(db, "enrolment", enrolments);
  await insertAll(db, "assignment", assignments);

  const counts = { learnerAssignments: 0, submissions: 0, comments: 0, messages: 0 };
  let statuses: Rows<"learner_assignment"> = [];
  let submissions: Rows<"submission"> = [];
  let comments: Rows<"assignment_comment"> = [];
  let messages: Rows<"message"> = [];
  // A transaction per 100 learners' rows: few commits, and no more than that held at once.
  const flush = async () => {
    await db.transaction().execute(async (trx) => {
      await insertAll(trx, "learner_assignment", statuses);
      await insertAll(trx, "submission", submissions);
      await insertAll(trx, "assignment_comment", comments);
      await insertAll(trx, "message", messages);
    });
    counts.learnerAssignments += statuses.length;
    counts.submissions += submissions.length;
    counts.comments += comments.length;
    counts.messages += messages.length;
    [statuses, submissions, comments, messages] = [[], [], [], []];
  };
  for (let i = 0; i < learnerIds.length; i++) {
    if (i > 0 && i % 100 === 0) await flush();
    const learnerId = learnerIds[i]!;
    const b = batchOf(i);
    const theirs = assignments.slice(b * size.assignmentsPerBatch, (b + 1) * size.assignmentsPerBatch);
    for (const assignment of theirs) {
      const due = Date.parse(assignment.dueAt);
      const past = due < now.getTime();
      const roll = random.next();
      const status = past
        ? roll < 0.6
          ? "accepted"
          : roll < 0.7
            ? "submitted"
            : roll < 0.8
              ? "late"
              : roll < 0.85
                ? "changes-requested"
                : "not-started"
        : roll < 0.6
          ? "not-started"
          : roll < 0.9
            ? "submitted"
            : "accepted";
      const handedIn = status !== "not-started";
      const submittedAt = handedIn
        ? new Date(
            Math.min(now.getTime() - 60_000, due + (status === "late" ? 1 : -1) * random.int(3 * day)),
          ).toISOString()
        : null;
      statuses.push({
        assignmentId: assignment.id,
        learnerId,
        status,
        points: status === "accepted" && assignment.points ? 5 + random.int(6) : null,
        submittedAt,
        reviewedAt: status === "accepted" || status === "changes-requested" ? submittedAt : null,
        updatedAt: submittedAt ?? assignment.createdAt,
      });
      messages.push({
        id: randomUUID(),
        learnerId,
        kind: "task",
        body: `<p>New assignment: ${assignment.title}</p>`,
        sentBy: people.trainerId,
        sentAt: assignment.createdAt,
        readAt: past ? assignment.dueAt : null,
      });
      if (!handedIn) continue;
      submissions.push({
        id: randomUUID(),
        assignmentId: assignment.id,
        learnerId,
        link: `https://github.com/bench/${i}/${assignment.title.replace(" ", "-")}`,
        fileId: null,
        late: status === "late" ? 1 : 0,
        submittedAt: submittedAt!,
      });
      if (status === "accepted" || status === "changes-requested") {
        comments.push({
          id: randomUUID(),
          assignmentId: assignment.id,
          learnerId,
          authorId: people.trainerId,
          authorName: "Bench Trainer",
          kind: status === "accepted" ? "accepted" : "changes",
          body: status === "accepted" ? "Well done." : "Add tests, please.",
          createdAt: submittedAt!,
        });
      }
    }
  }
  await flush();
  return {
    assignmentId: assignments[Math.floor(size.assignmentsPerBatch / 2)]!.id,
    rows: { batches: batches.length, learners: learnerIds.length, assignments: assignments.length, ...counts },
  };
}
