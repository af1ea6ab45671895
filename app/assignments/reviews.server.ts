import { randomUUID } from "node:crypto";
import { recordAudit } from "~/core/audit.server";
import type { Deps } from "~/core/deps";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import { mailTopic, staffTopic, userTopic, type RealtimeEvent } from "~/realtime/events";
import { queueReviewEmail } from "./assignment-mail.server";
import { assignmentMessages as messages, type Review } from "./assignment-rules";
import { learnerNameOf } from "./assignments.server";
import { waitingStatuses } from "./statuses";

// A trainer accepts a learner's submission (with points, if the assignment has them) or asks for
// changes with a comment. Only a submission waiting for review can be reviewed.

export async function reviewSubmission(
  deps: Deps,
  actor: Actor,
  review: Review,
  now = new Date(),
): Promise<ActionResult> {
  const row = await deps.db
    .selectFrom("learner_assignment")
    .innerJoin("assignment", "assignment.id", "learner_assignment.assignmentId")
    .select(["assignment.id", "assignment.title", "assignment.points as maxPoints", "learner_assignment.status"])
    .where("learner_assignment.assignmentId", "=", review.assignmentId)
    .where("learner_assignment.learnerId", "=", review.learnerId)
    .executeTakeFirst();
  if (!row) return { ok: false, status: 404, message: messages.notFound };
  if (row.status === "accepted") return { ok: false, status: 409, message: messages.accepted };
  if (row.status === "not-started") return { ok: false, status: 409, message: messages.nothingToReview };
  if (!waitingStatuses.includes(row.status)) return { ok: false, status: 409, message: messages.notWaiting };
  let points: number | null = null;
  if (review.decision === "accept" && review.points !== null) {
    if (row.maxPoints === null) return { ok: false, status: 400, message: messages.pointsOnlyWithPoints };
    if (review.points > row.maxPoints) return { ok: false, status: 400, message: messages.pointsAbove(row.maxPoints) };
    points = review.points;
  }
  const accepted = review.decision === "accept";
  const name = await learnerNameOf(deps.db, review.learnerId);
  const at = now.toISOString();
  return inTransaction(deps, { people: [review.learnerId] }, async (trx, bus) => {
    const updated = await trx
      .updateTable("learner_assignment")
      .set({ status: accepted ? "accepted" : "changes-requested", points, reviewedAt: at, updatedAt: at })
      .where("assignmentId", "=", row.id)
      .where("learnerId", "=", review.learnerId)
      .where("status", "in", [...waitingStatuses])
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      return { ok: false as const, status: 409 as const, message: messages.notWaiting };
    if (!accepted || review.comment) {
      await trx
        .insertInto("assignment_comment")
        .values({
          id: randomUUID(),
          assignmentId: row.id,
          learnerId: review.learnerId,
          authorId: actor.id,
          authorName: actor.name,
          kind: accepted ? "accepted" : "changes",
          body: review.comment,
          createdAt: at,
        })
        .execute();
    }
    await recordAudit(trx, actor, {
      action: accepted ? "accept-submission" : "request-changes",
      detail: points === null ? row.title : `${row.title}: ${points} of ${row.maxPoints} points`,
      targetId: review.learnerId,
      target: name,
      count: 1,
    });
    // The learner hears of it by email too, as they chose for tasks.
    const emailed = await queueReviewEmail(trx, { assignmentId: row.id, learnerId: review.learnerId, reviewedAt: at });
    const events: [string, RealtimeEvent][] = [
      [userTopic(review.learnerId), { type: "assignments" }],
      [staffTopic, { type: "assignments", learnerId: review.learnerId }],
    ];
    if (emailed) events.push([mailTopic, { type: "mail-queued" }]);
    await bus.publishMany(events);
    return { ok: true as const, message: accepted ? messages.acceptedDone : messages.changesRequested };
  });
}
