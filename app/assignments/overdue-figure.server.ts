import { PostgresAdapter, sql } from "kysely";
import { writing } from "~/core/transaction.server";
import type { Db } from "~/db/database.server";
import { overdueStatuses } from "./statuses";

// The staff table's "Assignments overdue" figure on each learner's row (migration 0047,
// decision 025). Triggers recount it for every write that changes it; what no write changes is
// the clock passing a due date, which this pass follows.

/**
 * An assignment whose due date passed this recently is counted again by every round, not yet
 * marked as counted: a learner's assignment written in a transaction that began before the due
 * date and committed after the round was counted is then still seen.
 */
const settleMs = 60_000;

/** Assignments counted per round; those left over (after a long stop) go in the next rounds. */
const perRound = 200;

/**
 * Run by the mail worker's round on every instance: the learners of each assignment whose due
 * date has passed since the pass last counted it get their figure counted again as of `now`
 * (written only where it changed), and the assignment is marked as counted. Rounds on two
 * instances at once count the same rows and write the same figures.
 */
export function countPassedDueDates(db: Db): (now: Date) => Promise<void> {
  return async (now) => {
    const at = now.toISOString();
    // Read first: most rounds find none.
    const passed = await passedDueDatesQuery(db, at).execute();
    if (passed.length === 0) return;
    const ids = passed.map((row) => row.id);
    // Only the staff table shows the figure.
    await writing(db, { staff: true }, async (trx) => {
      await recountOverdue(trx, ids, at);
      await trx
        .updateTable("assignment")
        .set({ overdueCountedAt: at })
        .where("id", "in", ids)
        .where("overdueCountedAt", "is", null)
        .where("dueAt", "<", new Date(now.getTime() - settleMs).toISOString())
        .execute();
    });
  };
}

/**
 * The assignments whose due date is before `at` and not yet counted, oldest first, on the index of
 * exactly those (exported so that a test can check its plan).
 */
export function passedDueDatesQuery(db: Db, at: string) {
  return db
    .selectFrom("assignment")
    .select("id")
    .where("overdueCountedAt", "is", null)
    .where("dueAt", "<", at)
    .orderBy("dueAt")
    .limit(perRound);
}

/** Counts again, as of `at`, the figure of every learner these assignments still wait for. */
async function recountOverdue(trx: Db, assignmentIds: string[], at: string) {
  const learners = trx
    .selectFrom("learner_assignment")
    .select("learner_assignment.learnerId")
    .where("learner_assignment.assignmentId", "in", assignmentIds)
    .where("learner_assignment.status", "in", [...overdueStatuses]);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    // Locked first, in one order, as the triggers lock them: the count below is then read after
    // any transaction changing these learners' assignments has committed.
    await trx.selectFrom("user").select("id").where("id", "in", learners).orderBy("id").forUpdate().execute();
  }
  const figure = sql<number>`(select count(*) from "learner_assignment" la
    join "assignment" a on a."id" = la."assignmentId"
    where la."learnerId" = "user"."id" and la."status" in (${sql.join([...overdueStatuses])}) and a."dueAt" < ${at})`;
  await trx
    .updateTable("user")
    .set({ overdueCount: figure })
    .where("id", "in", learners)
    .where(sql<boolean>`"overdueCount" <> ${figure}`)
    .execute();
}
