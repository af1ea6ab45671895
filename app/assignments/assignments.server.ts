import { randomUUID } from "node:crypto";
import { personName } from "~/accounts/person-name";
import { recordAudit } from "~/core/audit.server";
import { formatDateTime, wallTimeIn } from "~/core/dates";
import type { Deps } from "~/core/deps";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { textLimits } from "~/core/text";
import { inTransaction } from "~/core/transaction.server";
import type { Db } from "~/db/database.server";
import { queueMessageEmails } from "~/mail/queue-emails.server";
import { prepareMessageBody } from "~/messages/messages.server";
import { textFromHtml } from "~/messages/plain-text.server";
import { escapeHtml } from "~/mail/mailer.server";
import { staffTopic, userTopic, type RealtimeEvent } from "~/realtime/events";
import { isLearnerRow } from "~/batches/membership.server";
import { assignmentMessages as messages, type NewAssignment } from "./assignment-rules";

// Staff set an assignment for a batch or for selected learners. Each learner gets their own
// learner_assignment (not started) and a task in their Tasks popup, which brings its unread
// count and its email as the learner chose for tasks.

export type AssignmentDeps = Deps & { config: { instituteTimeZone: string } };

/** The instructions as learners will see them (empty stays empty), or why they can't be stored. */
export function prepareInstructions(typed: string): { html: string } | { refusal: string } {
  if (typed.trim() === "") return { html: "" };
  const prepared = prepareMessageBody(typed);
  if (!("refused" in prepared)) return { html: prepared.body };
  if (prepared.refused === "empty") return { html: "" };
  return {
    refusal:
      prepared.refused === "too-long"
        ? `The instructions are too long: at most ${textLimits.message.toLocaleString("en-IN")} characters once formatted.`
        : `The instructions have too many lines or tags: at most ${textLimits.messageLines.toLocaleString("en-IN")} lines and ${textLimits.messageTags.toLocaleString("en-IN")} tags.`,
  };
}

/** Who the assignment is for: the selected learners, else everyone in the batch. */
async function audienceOf(
  db: Db,
  input: NewAssignment,
): Promise<ActionResult<{ ids: string[]; batchName: string | null }>> {
  let batchName: string | null = null;
  if (input.batchId) {
    const batch = await db.selectFrom("batch").select("name").where("id", "=", input.batchId).executeTakeFirst();
    if (!batch) return { ok: false, status: 404, message: messages.noBatch };
    batchName = batch.name;
  }
  if (input.learnerIds.length > 0) {
    const found = await db
      .selectFrom("user")
      .select("id")
      .where("id", "in", input.learnerIds)
      .where(isLearnerRow)
      .execute();
    if (found.length < input.learnerIds.length) {
      const present = new Set(found.map((row) => row.id));
      const gone = input.learnerIds.filter((one) => !present.has(one));
      return { ok: false, status: 404, message: `${gone.length} of the selected learners no longer exist.`, gone };
    }
    return { ok: true, message: "", ids: input.learnerIds, batchName };
  }
  const enrolled = await db.selectFrom("enrolment").select("learnerId").where("batchId", "=", input.batchId).execute();
  return { ok: true, message: "", ids: enrolled.map((row) => row.learnerId), batchName };
}

/** The task a learner finds in their Tasks popup: the title, when it is due, the instructions. */
function taskBody(title: string, dueAt: string, timeZone: string, instructions: string): string {
  return (
    `<p><strong>Assignment: ${escapeHtml(title)}</strong></p>` +
    `<p>Due ${escapeHtml(formatDateTime(dueAt, timeZone))}. Hand it in under Assignments in this window.</p>` +
    instructions
  );
}

export async function createAssignment(
  deps: AssignmentDeps,
  actor: Actor,
  input: NewAssignment,
  now = new Date(),
): Promise<ActionResult<{ assignmentId: string; count: number }>> {
  const timeZone = deps.config.instituteTimeZone;
  const due = wallTimeIn(input.dueDate, input.dueTime, timeZone);
  if (Number.isNaN(due.getTime())) return { ok: false, status: 400, message: messages.badDate };
  if (due.getTime() <= now.getTime()) return { ok: false, status: 400, message: messages.duePassed };
  const instructions = prepareInstructions(input.instructions);
  if ("refusal" in instructions) return { ok: false, status: 400, message: instructions.refusal };
  const audience = await audienceOf(deps.db, input);
  if (!audience.ok) return audience;
  const dueAt = due.toISOString();
  const at = now.toISOString();
  const assignmentId = randomUUID();
  const body = taskBody(input.title, dueAt, timeZone, instructions.html);
  await inTransaction(deps, { everyone: true }, async (trx, bus) => {
    await trx
      .insertInto("assignment")
      .values({
        id: assignmentId,
        batchId: input.batchId || null,
        title: input.title,
        instructions: instructions.html,
        dueAt,
        handIn: input.handIn,
        points: input.points,
        createdBy: actor.id,
        createdByName: actor.name,
        createdAt: at,
      })
      .execute();
    const messageIds: string[] = [];
    for (let start = 0; start < audience.ids.length; start += 100) {
      const chunk = audience.ids.slice(start, start + 100);
      await trx
        .insertInto("learner_assignment")
        .values(
          chunk.map((learnerId) => ({
            assignmentId,
            learnerId,
            status: "not-started" as const,
            points: null,
            submittedAt: null,
            reviewedAt: null,
            updatedAt: at,
          })),
        )
        .execute();
      const messages = chunk.map((learnerId) => ({
        id: randomUUID(),
        learnerId,
        kind: "task" as const,
        body,
        sentBy: actor.id,
        sentAt: at,
        readAt: null,
      }));
      await trx.insertInto("message").values(messages).execute();
      messageIds.push(...messages.map((message) => message.id));
    }
    await queueMessageEmails(trx, bus, "task", messageIds);
    await recordAudit(trx, actor, {
      action: "create-assignment",
      detail: audience.batchName ?? "selected learners",
      targetId: null,
      target: input.title,
      count: audience.ids.length,
      sentText: textFromHtml(body),
    });
    const events: [string, RealtimeEvent][] = [[staffTopic, { type: "assignments" }]];
    for (const learnerId of audience.ids) {
      events.push([userTopic(learnerId), { type: "messages", kind: "task" }]);
      events.push([userTopic(learnerId), { type: "assignments" }]);
    }
    await bus.publishMany(events);
  });
  return {
    ok: true,
    message: messages.created(input.title, audience.ids.length),
    assignmentId,
    count: audience.ids.length,
  };
}

/** The learner's name as the audit log and the trainer's screens show it. */
export async function learnerNameOf(db: Db, learnerId: string): Promise<string> {
  const row = await db
    .selectFrom("user")
    .select(["username", "name", "email"])
    .where("id", "=", learnerId)
    .executeTakeFirst();
  return row ? personName(row) : "";
}
