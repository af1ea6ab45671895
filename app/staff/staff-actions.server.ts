import { PostgresAdapter } from "kysely";
import { randomUUID } from "node:crypto";
import { personName } from "~/accounts/person-name";
import { parseRoleArgument } from "~/accounts/roles.server";
import type { Db } from "~/db/database.server";
import { queueMessageEmails } from "~/mail/queue-emails.server";
import type { MessageKind } from "~/messages/kinds";
import {
  clearMessages,
  deleteMessage,
  prepareMessageBody,
  storeMessage,
  setOfferLetter,
  type MessageRefusal,
} from "~/messages/messages.server";
import { textFromHtml } from "~/messages/plain-text.server";
import type { EventBus } from "~/realtime/bus.server";
import { userTopic } from "~/realtime/events";
import { inTransaction, touch } from "~/core/transaction.server";
import { recordAudit } from "~/core/audit.server";
import type { Deps } from "~/core/deps";
import type { ActionResult } from "~/core/result";
import type { Actor } from "~/core/people";
import type { z } from "zod";
import { audienceNames, clockOf, isLearner, matchingLearnerIds } from "~/learners/learner-filter.server";
import { filterOf } from "~/learners/learner-filter";
import type { bulkSendSchema } from "./staff-types";
import { audienceWords, namesInWords } from "~/learners/audience";
import { staffMessages } from "~/learners/staff-messages";

/** The error line for a text that can't be stored. */
function refusal(kind: MessageKind | "offer-letter", { refused }: MessageRefusal): ActionResult<never> {
  if (refused === "too-long") return { ok: false, status: 400, message: staffMessages.tooLong(kind) };
  if (refused === "too-many-parts") return { ok: false, status: 400, message: staffMessages.tooManyParts(kind) };
  return {
    ok: false,
    status: 400,
    message: kind === "offer-letter" ? staffMessages.offerLetterEmpty : staffMessages.empty(kind),
  };
}

async function learnerName(db: Db, learnerId: string): Promise<string | null> {
  if (!learnerId) return null;
  const row = await db
    .selectFrom("user")
    .select(["username", "name", "email"])
    .where("id", "=", learnerId)
    .where(isLearner)
    .executeTakeFirst();
  return row ? personName(row) : null;
}

/** Send Notice / Send Task / Send Certificate to the selected learner (staff and admin). */
export async function sendToLearner(
  deps: Deps,
  actor: Actor,
  input: { learnerId: string; kind: MessageKind; html: string },
): Promise<ActionResult> {
  if (!input.learnerId) return { ok: false, status: 400, message: staffMessages.selectLearner };
  const checked = prepareMessageBody(input.html);
  if ("refused" in checked) return refusal(input.kind, checked);
  const name = await learnerName(deps.db, input.learnerId);
  if (!name) return { ok: false, status: 404, message: staffMessages.notALearner };
  await inTransaction(deps, { people: [input.learnerId] }, async (trx, bus) => {
    await storeMessage(
      { db: trx, bus },
      { learnerId: input.learnerId, kind: input.kind, body: checked.body, sentBy: actor.id },
    );
    await recordAudit(trx, actor, {
      action: "send",
      detail: input.kind,
      targetId: input.learnerId,
      target: name,
      count: 1,
      sentText: textFromHtml(checked.body),
    });
  });
  return { ok: true, message: staffMessages.sent(input.kind) };
}

/** Writes one text to each of these learners, in the caller's transaction, and tells their tabs. */
async function insertForEach(
  trx: Db,
  bus: EventBus,
  learnerIds: string[],
  message: { kind: MessageKind; body: string; sentBy: string },
): Promise<void> {
  const sentAt = new Date().toISOString();
  await touch(trx, { people: learnerIds });
  for (let i = 0; i < learnerIds.length; i += 500) {
    const rows = learnerIds
      .slice(i, i + 500)
      .map((learnerId) => ({ id: randomUUID(), learnerId, ...message, sentAt, readAt: null }));
    await trx.insertInto("message").values(rows).execute();
    await queueMessageEmails(
      trx,
      bus,
      message.kind,
      rows.map((row) => row.id),
    );
  }
  await bus.publishMany(learnerIds.map((id) => [userTopic(id), { type: "messages", kind: message.kind }] as const));
}

/**
 * Sends one text to every learner the search and filter match, as the server counts them now.
 * The confirmation showed `expectedCount`; if the set has changed since, nothing is sent and the
 * new number is returned, so the sender confirms again.
 */
export async function sendToMatching(
  deps: Deps & { config: { instituteTimeZone: string } },
  actor: Actor,
  input: z.infer<typeof bulkSendSchema>,
): Promise<ActionResult<{ count: number }>> {
  const prepared = prepareMessageBody(input.html);
  if ("refused" in prepared) return refusal(input.kind, prepared);
  const filter = filterOf(input, actor.id);
  const clock = clockOf(deps.config);
  // Whom it reaches is known inside: insertForEach names them.
  const outcome = await inTransaction(deps, {}, async (trx, bus): Promise<{ sent: number } | { changed: number }> => {
    const ids = await matchingLearnerIds(trx, filter, clock);
    if (ids.length !== input.expectedCount) return { changed: ids.length };
    // Written here, in the action's transaction, so that the audit row and the messages land together.
    await insertForEach(trx, bus, ids, { kind: input.kind, body: prepared.body, sentBy: actor.id });
    await recordAudit(trx, actor, {
      action: "bulk-send",
      detail: input.kind,
      targetId: null,
      target: audienceWords(filter, ids.length, await audienceNames(trx, filter)),
      count: ids.length,
      sentText: textFromHtml(prepared.body),
    });
    return { sent: ids.length };
  });
  if ("changed" in outcome) {
    return { ok: false, status: 409, message: staffMessages.countChanged, count: outcome.changed };
  }
  return { ok: true, message: staffMessages.sentMany(input.kind, outcome.sent), count: outcome.sent };
}

/**
 * Sends one text to exactly the learners ticked in the list. If any of them is no longer a
 * learner, nothing is sent and their ids come back, so the list drops them and the sender decides again.
 */
export async function sendToSelected(
  deps: Deps,
  actor: Actor,
  input: { learnerIds: string[]; kind: MessageKind; html: string },
): Promise<ActionResult<{ count: number; gone?: string[] }>> {
  const prepared = prepareMessageBody(input.html);
  if ("refused" in prepared) return refusal(input.kind, prepared);
  const outcome = await inTransaction(
    deps,
    { people: input.learnerIds },
    async (trx, bus): Promise<{ sent: number } | { gone: string[] }> => {
      const found = await trx
        .selectFrom("user")
        .select(["id", "username", "name", "email"])
        .where("id", "in", input.learnerIds)
        .where(isLearner)
        .orderBy("username")
        .execute();
      if (found.length !== input.learnerIds.length) {
        const present = new Set(found.map((row) => row.id));
        return { gone: input.learnerIds.filter((id) => !present.has(id)) };
      }
      const ids = found.map((row) => row.id);
      await insertForEach(trx, bus, ids, { kind: input.kind, body: prepared.body, sentBy: actor.id });
      await recordAudit(trx, actor, {
        action: "send-selected",
        detail: input.kind,
        targetId: ids.length === 1 ? ids[0]! : null,
        target: namesInWords(found.map(personName), 5),
        count: ids.length,
        sentText: textFromHtml(prepared.body),
      });
      return { sent: ids.length };
    },
  );
  if ("gone" in outcome) {
    return {
      ok: false,
      status: 409,
      message: staffMessages.selectedGone(outcome.gone.length),
      gone: outcome.gone,
    };
  }
  return { ok: true, message: staffMessages.sentMany(input.kind, outcome.sent), count: outcome.sent };
}

/** A text as learners would see it, formatted and sanitized exactly as a send would store it. */
export async function previewMessage(
  _deps: Deps,
  _actor: Actor,
  input: { kind: MessageKind; html: string },
): Promise<ActionResult<{ html: string }>> {
  const prepared = prepareMessageBody(input.html);
  if ("refused" in prepared) return refusal(input.kind, prepared);
  return { ok: true, message: "", html: prepared.body };
}

/** Clears a learner's notices, tasks or certificates (admin only; the caller checks). */
export async function clearForLearner(
  deps: Deps,
  actor: Actor,
  input: { learnerId: string; kind: MessageKind },
): Promise<ActionResult<{ count: number }>> {
  if (!input.learnerId) return { ok: false, status: 400, message: staffMessages.selectLearner };
  const name = await learnerName(deps.db, input.learnerId);
  if (!name) return { ok: false, status: 404, message: staffMessages.notALearner };
  const count = await inTransaction(deps, { people: [input.learnerId] }, async (trx, bus) => {
    const cleared = await clearMessages({ db: trx, bus }, input.learnerId, input.kind);
    await recordAudit(trx, actor, {
      action: "clear",
      detail: input.kind,
      targetId: input.learnerId,
      target: name,
      count: cleared,
    });
    return cleared;
  });
  return { ok: true, message: staffMessages.cleared(input.kind), count };
}

/** Deletes one notice, task or certificate sent to a learner (admin only; the caller checks). */
export async function deleteSentItem(
  deps: Deps,
  actor: Actor,
  input: { learnerId: string; messageId: string },
): Promise<ActionResult> {
  const name = await learnerName(deps.db, input.learnerId);
  if (!name) return { ok: false, status: 404, message: staffMessages.notALearner };
  const kind = await inTransaction(deps, { people: [input.learnerId] }, async (trx, bus) => {
    const deleted = await deleteMessage({ db: trx, bus }, input.learnerId, input.messageId);
    if (deleted) {
      await recordAudit(trx, actor, {
        action: "delete-message",
        detail: deleted,
        targetId: input.learnerId,
        target: name,
        count: 1,
      });
    }
    return deleted;
  });
  if (!kind) return { ok: false, status: 404, message: staffMessages.alreadyDeleted };
  return { ok: true, message: staffMessages.deleted(kind) };
}

/** Writes or replaces a learner's offer letter (admin only; the caller checks). */
export async function saveOfferLetter(
  deps: Deps,
  actor: Actor,
  input: { learnerId: string; html: string },
): Promise<ActionResult> {
  if (!input.learnerId) return { ok: false, status: 400, message: staffMessages.selectLearner };
  const checked = prepareMessageBody(input.html);
  if ("refused" in checked) return refusal("offer-letter", checked);
  const name = await learnerName(deps.db, input.learnerId);
  if (!name) return { ok: false, status: 404, message: staffMessages.notALearner };
  await inTransaction(deps, { people: [input.learnerId] }, async (trx, bus) => {
    await setOfferLetter({ db: trx, bus }, { learnerId: input.learnerId, html: checked.body, updatedBy: actor.id });
    await recordAudit(trx, actor, {
      action: "offer-letter",
      detail: null,
      targetId: input.learnerId,
      target: name,
      count: 1,
      sentText: textFromHtml(checked.body),
    });
  });
  return { ok: true, message: staffMessages.offerLetterSaved };
}

/** Sets or clears (`none` or empty) a user's role (admin only; the caller checks). */
export async function changeRole(
  deps: Deps,
  actor: Actor,
  input: { userId: string; role: string },
): Promise<ActionResult<{ role: string | null }>> {
  if (input.userId === actor.id) return { ok: false, status: 400, message: staffMessages.ownRole };
  let role: string | null;
  try {
    role = input.role.trim() === "" ? null : parseRoleArgument(input.role);
  } catch (error) {
    return { ok: false, status: 400, message: (error as Error).message };
  }
  const outcome = await inTransaction(
    deps,
    { people: [input.userId] },
    async (trx, bus): Promise<"gone" | "last-admin" | "changed"> => {
      // Admins' rows locked on PostgreSQL (SQLite runs one transaction at a time), so two admins
      // demoting each other at once cannot both succeed.
      const admins = trx.selectFrom("user").select("id").where("role", "=", "admin");
      const locked = trx.getExecutor().adapter instanceof PostgresAdapter ? admins.forUpdate() : admins;
      const adminIds = (await locked.execute()).map((r) => r.id);
      const user = await trx
        .selectFrom("user")
        .select(["id", "username", "name", "email", "role"])
        .where("id", "=", input.userId)
        .executeTakeFirst();
      if (!user) return "gone";
      if (user.role === "admin" && role !== "admin" && adminIds.every((id) => id === user.id)) return "last-admin";
      const now = new Date().toISOString();
      await trx
        .updateTable("user")
        .set({ role, roleChangedAt: now, updatedAt: now })
        .where("id", "=", user.id)
        .execute();
      await recordAudit(trx, actor, {
        action: "role-change",
        detail: role ?? "none",
        targetId: user.id,
        target: personName(user),
        count: 1,
      });
      // Their open tabs refresh and show (or lose) the Admin button.
      await bus.publish(userTopic(user.id), { type: "resync" });
      return "changed";
    },
  );
  if (outcome === "gone") return { ok: false, status: 404, message: staffMessages.notALearner };
  if (outcome === "last-admin") return { ok: false, status: 409, message: staffMessages.lastAdmin };
  return { ok: true, message: staffMessages.roleChanged, role };
}
