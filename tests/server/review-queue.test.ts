import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  assignmentMatrix,
  matrixRows,
  queueReads,
  reviewChoices,
  reviewQueue,
  type ReviewFilter,
} from "~/assignments/review-queue.server";
import { trainedBatchIds } from "~/batches/batch-edit.server";
import type { AssignmentStatus } from "~/assignments/statuses";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";
import { queryPlan, sortSteps } from "../support/query-plan";

// The review queue and the matrix read what they show from indexes that hold it in its order
// (migration 0049), never every learner's assignment with its learner and batch; and they list
// exactly what a plain reading of the rows gives. (bench/assignments.ts measures them at 100
// batches, 2,000 learners and 50 assignments a batch.)

const statuses: AssignmentStatus[] = ["not-started", "submitted", "late", "changes-requested", "accepted"];

describeEachDatabase("review queue reads", (database) => {
  let handle: TestDatabaseHandle;
  let trainerId: string;
  /** The trainer's batches, as the page reads them. */
  let myBatchIds: string[];
  let batchIds: string[];
  let assignmentIds: string[];
  const now = new Date("2026-11-20T12:00:00.000Z");
  const day = 86_400_000;
  /** Every learner's assignment as seeded, with its assignment's batch and due date. */
  let rows: {
    assignmentId: string;
    learnerId: string;
    status: AssignmentStatus;
    submittedAt: string | null;
    batchId: string;
    dueAt: string;
  }[];

  beforeEach(async () => {
    handle = await database.open();
    const db = handle.db;
    trainerId = await insertUser(db, { name: "Trainer", email: "trainer@example.com", role: "staff" });
    const learnerIds: string[] = [];
    for (let i = 0; i < 24; i++) {
      learnerIds.push(await insertUser(db, { name: `Learner ${i}`, email: `learner-${i}@example.com` }));
    }
    const at = now.toISOString();
    batchIds = [randomUUID(), randomUUID(), randomUUID()];
    await db
      .insertInto("batch")
      .values(
        batchIds.map((id, b) => ({
          id,
          name: `Batch ${b}`,
          course: "Python",
          courseSlug: "python",
          schedule: "",
          startDate: "2026-10-01",
          endDate: "2027-01-31",
          payment: "upfront" as const,
          termsId: null,
          createdAt: at,
        })),
      )
      .execute();
    await db.insertInto("batch_trainer").values({ batchId: batchIds[0]!, staffId: trainerId, createdAt: at }).execute();
    const assignments = batchIds.flatMap((batchId, b) =>
      Array.from({ length: 6 }, (_, a) => ({
        id: randomUUID(),
        batchId,
        title: `Exercise ${b}.${a}`,
        instructions: "<p>Hand it in.</p>",
        // Half past due (two of them on the same day across batches), half still open.
        dueAt: new Date(now.getTime() + (a - 3) * day).toISOString(),
        handIn: "link" as const,
        points: null,
        createdBy: trainerId,
        createdByName: "Trainer",
        createdAt: at,
      })),
    );
    await db.insertInto("assignment").values(assignments).execute();
    assignmentIds = assignments.map((assignment) => assignment.id);
    rows = [];
    learnerIds.forEach((learnerId, i) => {
      const batchId = batchIds[i % batchIds.length]!;
      for (const assignment of assignments.filter((a) => a.batchId === batchId)) {
        const status = statuses[(i * 7 + rows.length) % statuses.length]!;
        // Some hand-ins at the same moment: the learner, then the assignment, decides the order.
        const submittedAt =
          status === "not-started"
            ? null
            : new Date(now.getTime() - ((rows.length * 13) % 40) * 3_600_000).toISOString();
        rows.push({ assignmentId: assignment.id, learnerId, status, submittedAt, batchId, dueAt: assignment.dueAt });
      }
    });
    await db
      .insertInto("learner_assignment")
      .values(
        rows.map((row) => ({
          assignmentId: row.assignmentId,
          learnerId: row.learnerId,
          status: row.status,
          points: null,
          submittedAt: row.submittedAt,
          reviewedAt: null,
          updatedAt: row.submittedAt ?? at,
        })),
      )
      .execute();
    if (handle.dialect === "postgres") await sql`analyze`.execute(db);
    myBatchIds = await trainedBatchIds(db, trainerId);
  });
  afterEach(async () => {
    await handle.dispose();
  });

  const filters = (): Record<string, ReviewFilter> => ({
    all: { batch: "all", assignmentId: "", myBatchIds },
    mine: { batch: "mine", assignmentId: "", myBatchIds },
    batch: { batch: batchIds[1]!, assignmentId: "", myBatchIds },
    assignment: { batch: "all", assignmentId: assignmentIds[2]!, myBatchIds },
  });
  const byKeys = <T extends { assignmentId: string; learnerId: string }>(list: T[]) =>
    list.map((row) => `${row.assignmentId}:${row.learnerId}`);
  const compare = (a: string | null, b: string | null) => (a! < b! ? -1 : a! > b! ? 1 : 0);

  it("lists the waiting oldest first and the overdue earliest due first, with their counts, for every filter", async () => {
    for (const [name, filter] of Object.entries(filters())) {
      const kept = rows.filter(
        (row) =>
          (filter.assignmentId === "" || row.assignmentId === filter.assignmentId) &&
          (filter.batch === "all" || row.batchId === (filter.batch === "mine" ? batchIds[0] : filter.batch)),
      );
      const waiting = kept
        .filter((row) => row.status === "submitted" || row.status === "late")
        .sort(
          (a, b) =>
            compare(a.submittedAt, b.submittedAt) ||
            compare(a.learnerId, b.learnerId) ||
            compare(a.assignmentId, b.assignmentId),
        );
      const overdue = kept
        .filter(
          (row) =>
            (row.status === "not-started" || row.status === "changes-requested") && row.dueAt < now.toISOString(),
        )
        .sort(
          (a, b) =>
            compare(a.dueAt, b.dueAt) || compare(a.learnerId, b.learnerId) || compare(a.assignmentId, b.assignmentId),
        );
      expect(waiting.length, name).toBeGreaterThan(0);
      expect(overdue.length, name).toBeGreaterThan(0);
      const queue = await reviewQueue(handle.db, filter, now);
      expect([queue.waitingCount, queue.overdueCount], name).toEqual([waiting.length, overdue.length]);
      // Counted up to a limit and one more, which the heading shows as "limit+".
      const upTo = Math.min(waiting.length, overdue.length) - 1;
      const capped = queueReads(handle.db, filter, now, upTo);
      expect(
        [await capped.waitingCount.executeTakeFirstOrThrow(), await capped.overdueCount.executeTakeFirstOrThrow()].map(
          (row) => Number(row.n),
        ),
        name,
      ).toEqual([upTo + 1, upTo + 1]);
      expect(byKeys(queue.waiting), name).toEqual(byKeys(waiting.slice(0, 50)));
      expect(byKeys(queue.overdue), name).toEqual(byKeys(overdue.slice(0, 50)));
      expect(queue.waiting.map((row) => row.status)).toEqual(waiting.slice(0, 50).map((row) => row.status));
      // Each row with its learner, assignment and batch.
      const first = queue.waiting[0]!;
      expect(first).toMatchObject({ email: expect.stringMatching(/^learner-\d+@example\.com$/), handIn: "link" });
      expect(first.title).toMatch(/^Exercise \d\.\d$/);
      expect(first.batch).toBe(`Batch ${batchIds.indexOf(waiting[0]!.batchId)}`);
      expect(queue.current).toMatchObject({ assignmentId: first.assignmentId, learnerId: first.learnerId });
    }
  });

  it("reads the waiting page's keys in the queue's order and counts them on the waiting index, without learners or batches", async () => {
    const reads = queueReads(handle.db, filters().all!, now);
    const keys = await queryPlan(handle, reads.waitingKeys.compile());
    expect(keys).toContain("learner_assignment_waiting_idx");
    expect(sortSteps(keys)).toEqual([]);
    // The count reads one of the two waiting indexes alone (in order, or by assignment).
    const count = await queryPlan(handle, reads.waitingCount.compile());
    expect(count).toMatch(
      handle.dialect === "sqlite"
        ? /COVERING INDEX learner_assignment_waiting(_assignment)?_idx/
        : /Index Only Scan using learner_assignment_waiting(_assignment)?_idx/,
    );
    // A batch's: its assignments' waiting rows, from the index by assignment (PostgreSQL may
    // instead walk the hand-in order until the 50th of the batch: waiting rows either way).
    for (const filter of [filters().batch!, filters().mine!]) {
      const { waitingKeys, waitingCount } = queueReads(handle.db, filter, now);
      for (const read of [waitingKeys, waitingCount]) {
        expect(await queryPlan(handle, read.compile())).toMatch(
          handle.dialect === "sqlite"
            ? /learner_assignment_waiting_assignment_idx/
            : /learner_assignment_waiting(_assignment)?_idx/,
        );
      }
    }
    for (const filter of Object.values(filters())) {
      const { waitingKeys, waitingCount, overdueKeys, overdueCount } = queueReads(handle.db, filter, now);
      for (const read of [waitingKeys, waitingCount, overdueKeys, overdueCount]) {
        const plan = await queryPlan(handle, read.compile());
        expect(plan, read.compile().sql).not.toMatch(/\buser\b|"user"|\bbatch\b(?!_)/);
      }
    }
  });

  it("reads the overdue from the index of assignments not handed in, never every learner's assignment", async () => {
    for (const filter of Object.values(filters())) {
      const { overdueKeys, overdueCount } = queueReads(handle.db, filter, now);
      for (const read of [overdueKeys, overdueCount]) {
        const plan = await queryPlan(handle, read.compile());
        expect(plan, read.compile().sql).toContain("learner_assignment_open_idx");
      }
    }
    // Every batch's on SQLite: the assignments past their due date, ids and all, from the due
    // date's index (PostgreSQL hashes them at size, or starts from the open rows when this few).
    if (handle.dialect === "sqlite") {
      const { overdueCount } = queueReads(handle.db, filters().all!, now);
      expect(await queryPlan(handle, overdueCount.compile())).toContain("COVERING INDEX assignment_due_id_idx");
    }
  });

  it("offers one batch's assignments to pick from, and across batches only the assignment already chosen", async () => {
    const titles = async (filter: ReviewFilter) =>
      (await reviewChoices(handle.db, filter)).assignments.map((assignment) => assignment.title).sort();
    const { all, mine, batch, assignment } = filters();
    expect(await titles(batch!)).toEqual(Array.from({ length: 6 }, (_, a) => `Exercise 1.${a}`));
    expect(await titles(all!)).toEqual([]);
    expect(await titles(mine!)).toEqual([]);
    expect(await titles(assignment!)).toEqual(["Exercise 0.2"]);
    expect((await reviewChoices(handle.db, batch!)).batches).toHaveLength(3);
  });

  it("reads an assignment's matrix by the assignment, then its learners by their ids", async () => {
    const plan = await queryPlan(handle, matrixRows(handle.db, assignmentIds[0]!).compile());
    expect(plan).toMatch(
      handle.dialect === "sqlite"
        ? /SEARCH learner_assignment USING INDEX sqlite_autoindex_learner_assignment_1 \(assignmentId=\?\)/
        : /Index Scan using learner_assignment_pk on learner_assignment/,
    );
    const matrix = await assignmentMatrix(handle.db, assignmentIds[0]!);
    const expected = rows.filter((row) => row.assignmentId === assignmentIds[0]);
    expect(matrix!.learners.map((row) => [row.learnerId, row.status]).sort()).toEqual(
      expected.map((row) => [row.learnerId, row.status]).sort(),
    );
  });
});
