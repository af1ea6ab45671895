import { randomUUID } from "node:crypto";
import type { Deps } from "~/core/deps";
import type { ActionResult } from "~/core/result";
import { inTransaction, writing } from "~/core/transaction.server";
import type { Db } from "~/db/database.server";
import { checkTaskLink } from "~/learners/task-link-rules";
import { staffTopic, userTopic } from "~/realtime/events";
import { assignmentMessages as messages } from "./assignment-rules";
import type { AssignmentStatus } from "./statuses";

// A learner hands in their assignment (again, until it is accepted) and replies under it. Every
// look-up is by the learner's own id: another learner's assignment is not found (404).

export interface LearnerRef {
  id: string;
  name: string;
}

/** The learner's own assignment, or undefined (someone else's is the same as none). */
export async function ownAssignment(db: Db, learnerId: string, assignmentId: string) {
  if (!assignmentId) return undefined;
  return db
    .selectFrom("learner_assignment")
    .innerJoin("assignment", "assignment.id", "learner_assignment.assignmentId")
    .select([
      "assignment.id",
      "assignment.title",
      "assignment.dueAt",
      "assignment.handIn",
      "assignment.points as maxPoints",
      "learner_assignment.status",
    ])
    .where("learner_assignment.learnerId", "=", learnerId)
    .where("learner_assignment.assignmentId", "=", assignmentId)
    .executeTakeFirst();
}

const announce = (learnerId: string) =>
  [
    [staffTopic, { type: "assignments", learnerId }],
    [userTopic(learnerId), { type: "assignments" }],
  ] as const;

/** What the learner hands in, checked against what the assignment asks for. */
async function handedIn(
  db: Db,
  learnerId: string,
  assignment: { id: string; handIn: "link" | "file" | "both" },
  input: { link: string; fileId: string },
): Promise<{ ok: true; link: string | null; fileId: string | null } | { ok: false; message: string }> {
  let link: string | null = null;
  let fileId: string | null = null;
  if (assignment.handIn !== "file") {
    const checked = checkTaskLink(input.link);
    if (!checked.ok) return checked;
    link = checked.link;
  }
  if (assignment.handIn !== "link") {
    if (!input.fileId) return { ok: false, message: messages.needFile };
    const file = await db
      .selectFrom("assignment_file")
      .select("id")
      .where("id", "=", input.fileId)
      .where("assignmentId", "=", assignment.id)
      .where("learnerId", "=", learnerId)
      .executeTakeFirst();
    if (!file) return { ok: false, message: messages.unknownFile };
    fileId = file.id;
  }
  return { ok: true, link, fileId };
}

/** Hands in (or again) the learner's assignment; late when after its due time. */
export async function submitAssignment(
  deps: Deps,
  learner: LearnerRef,
  input: { assignmentId: string; link: string; fileId: string },
  now = new Date(),
): Promise<ActionResult<{ status: AssignmentStatus }>> {
  const assignment = await ownAssignment(deps.db, learner.id, input.assignmentId);
  if (!assignment) return { ok: false, status: 404, message: messages.notFound };
  if (assignment.status === "accepted") return { ok: false, status: 409, message: messages.accepted };
  const work = await handedIn(deps.db, learner.id, assignment, input);
  if (!work.ok) return { ok: false, status: 400, message: work.message };
  const at = now.toISOString();
  const late = now.getTime() > Date.parse(assignment.dueAt);
  const status: AssignmentStatus = late ? "late" : "submitted";
  return inTransaction(deps, { people: [learner.id] }, async (trx, bus) => {
    // Accepted meanwhile (a trainer in another tab): nothing is stored.
    const updated = await trx
      .updateTable("learner_assignment")
      .set({ status, submittedAt: at, updatedAt: at })
      .where("assignmentId", "=", assignment.id)
      .where("learnerId", "=", learner.id)
      .where("status", "!=", "accepted")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      return { ok: false as const, status: 409 as const, message: messages.accepted };
    await trx
      .insertInto("submission")
      .values({
        id: randomUUID(),
        assignmentId: assignment.id,
        learnerId: learner.id,
        link: work.link,
        fileId: work.fileId,
        late: late ? 1 : 0,
        submittedAt: at,
      })
      .execute();
    await bus.publishMany(announce(learner.id));
    return { ok: true as const, message: late ? messages.submittedLate : messages.submitted, status };
  });
}

/** The learner's reply under their assignment. */
export async function replyToAssignment(
  deps: Deps,
  learner: LearnerRef,
  input: { assignmentId: string; body: string },
  now = new Date(),
): Promise<ActionResult> {
  const assignment = await ownAssignment(deps.db, learner.id, input.assignmentId);
  if (!assignment) return { ok: false, status: 404, message: messages.notFound };
  await inTransaction(deps, { people: [learner.id] }, async (trx, bus) => {
    await trx
      .insertInto("assignment_comment")
      .values({
        id: randomUUID(),
        assignmentId: assignment.id,
        learnerId: learner.id,
        authorId: learner.id,
        authorName: learner.name,
        kind: "reply",
        body: input.body,
        createdAt: now.toISOString(),
        // The learner's own words: nothing for them to read.
        readAt: now.toISOString(),
      })
      .execute();
    await bus.publishMany(announce(learner.id));
  });
  return { ok: true, message: messages.replied };
}

/**
 * Marks read the trainers' feedback the learner was shown (the Tasks popup names it by id with
 * the tasks it showed), only the learner's own: another learner's ids change nothing. Tells
 * the learner's open tabs when something changed; returns how many did.
 */
export async function markFeedbackShown(
  { db, bus }: Deps,
  learnerId: string,
  ids: readonly string[],
  now = new Date(),
): Promise<number> {
  const shown = [...new Set(ids)];
  if (shown.length === 0) return 0;
  const readAt = now.toISOString();
  // Read marks show on the learner's own pages only.
  const changed = await writing(db, { privately: [learnerId] }, async (trx) => {
    let count = 0;
    for (let i = 0; i < shown.length; i += 500) {
      const result = await trx
        .updateTable("assignment_comment")
        .set({ readAt })
        .where("learnerId", "=", learnerId)
        .where("readAt", "is", null)
        .where("id", "in", shown.slice(i, i + 500))
        .executeTakeFirst();
      count += Number(result.numUpdatedRows);
    }
    return count;
  });
  if (changed > 0) await bus.publish(userTopic(learnerId), { type: "assignments" });
  return changed;
}
