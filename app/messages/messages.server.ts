import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "~/db/database.server";
import type { MessageKind } from "~/db/schema";
import type { EventBus } from "~/realtime/bus.server";
// Relative, with extensions: bench/events.ts runs this file under plain Node (no path aliases).
import { userTopic } from "../realtime/events.ts";
import { sanitizeMessageHtml } from "./sanitize.server.ts";

export const messageKinds = ["notice", "task", "certificate"] as const satisfies readonly MessageKind[];

export function isMessageKind(value: unknown): value is MessageKind {
  return typeof value === "string" && (messageKinds as readonly string[]).includes(value);
}

export interface MessageView {
  id: string;
  kind: MessageKind;
  /** Sanitized HTML. */
  html: string;
  sentAt: string;
  read: boolean;
}

export class EmptyMessageError extends Error {
  constructor() {
    super("The message has no content left after sanitizing.");
    this.name = "EmptyMessageError";
  }
}

export interface MessageDeps {
  db: Db;
  bus: EventBus;
}

/**
 * Sends a notice, task or certificate to one learner (the staff endpoints call this). The HTML
 * is sanitized before it is stored; the learner's open tabs are told at once.
 */
export async function sendMessage(
  { db, bus }: MessageDeps,
  input: { learnerId: string; kind: MessageKind; html: string; sentBy: string | null; now?: Date },
): Promise<MessageView> {
  const body = sanitizeMessageHtml(input.html);
  if (!body) throw new EmptyMessageError();
  const row = {
    id: randomUUID(),
    learnerId: input.learnerId,
    kind: input.kind,
    body,
    sentBy: input.sentBy,
    sentAt: (input.now ?? new Date()).toISOString(),
    readAt: null,
  };
  await db.insertInto("message").values(row).execute();
  await bus.publish(userTopic(input.learnerId), { type: "messages", kind: input.kind });
  return { id: row.id, kind: row.kind, html: body, sentAt: row.sentAt, read: false };
}

/**
 * Sends the same message to many learners in one statement per 500 (bulk send of the staff
 * dashboard); returns how many received it.
 */
export async function sendMessageToMany(
  { db, bus }: MessageDeps,
  input: { learnerIds: string[]; kind: MessageKind; html: string; sentBy: string | null; now?: Date },
): Promise<number> {
  const body = sanitizeMessageHtml(input.html);
  if (!body) throw new EmptyMessageError();
  const sentAt = (input.now ?? new Date()).toISOString();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < input.learnerIds.length; i += 500) {
      const rows = input.learnerIds.slice(i, i + 500).map((learnerId) => ({
        id: randomUUID(),
        learnerId,
        kind: input.kind,
        body,
        sentBy: input.sentBy,
        sentAt,
        readAt: null,
      }));
      await trx.insertInto("message").values(rows).execute();
    }
  });
  await Promise.all(input.learnerIds.map((id) => bus.publish(userTopic(id), { type: "messages", kind: input.kind })));
  return input.learnerIds.length;
}

/** A learner's messages of one kind, newest first; sanitized again on the way out. */
export async function listMessages(db: Db, learnerId: string, kind: MessageKind, limit = 200): Promise<MessageView[]> {
  const rows = await db
    .selectFrom("message")
    .select(["id", "kind", "body", "sentAt", "readAt"])
    .where("learnerId", "=", learnerId)
    .where("kind", "=", kind)
    .orderBy("sentAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    html: sanitizeMessageHtml(r.body),
    sentAt: r.sentAt,
    read: r.readAt !== null,
  }));
}

/** Unread notices: the Notification badge. */
export async function unreadNoticeCount(db: Db, learnerId: string): Promise<number> {
  const row = await db
    .selectFrom("message")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("learnerId", "=", learnerId)
    .where("kind", "=", "notice")
    .where("readAt", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks every unread notice of the learner read; returns how many changed. */
export async function markNoticesRead({ db, bus }: MessageDeps, learnerId: string, now = new Date()): Promise<number> {
  const result = await db
    .updateTable("message")
    .set({ readAt: now.toISOString() })
    .where("learnerId", "=", learnerId)
    .where("kind", "=", "notice")
    .where("readAt", "is", null)
    .executeTakeFirst();
  const changed = Number(result.numUpdatedRows);
  // The learner's other tabs drop their badge too.
  if (changed > 0) await bus.publish(userTopic(learnerId), { type: "messages", kind: "notice" });
  return changed;
}

/** Deletes a learner's messages of one kind (admin clear); returns how many. */
export async function clearMessages({ db, bus }: MessageDeps, learnerId: string, kind: MessageKind): Promise<number> {
  const result = await db
    .deleteFrom("message")
    .where("learnerId", "=", learnerId)
    .where("kind", "=", kind)
    .executeTakeFirst();
  await bus.publish(userTopic(learnerId), { type: "messages", kind });
  return Number(result.numDeletedRows);
}

/** Counts of each kind per learner (staff learner cards). */
export async function messageCounts(db: Db, learnerIds: string[]): Promise<Map<string, Record<MessageKind, number>>> {
  const counts = new Map<string, Record<MessageKind, number>>();
  if (learnerIds.length === 0) return counts;
  const rows = await db
    .selectFrom("message")
    .select(["learnerId", "kind", sql<number | string>`count(*)`.as("n")])
    .where("learnerId", "in", learnerIds)
    .groupBy(["learnerId", "kind"])
    .execute();
  for (const id of learnerIds) counts.set(id, { notice: 0, task: 0, certificate: 0 });
  for (const r of rows) counts.get(r.learnerId)![r.kind] = Number(r.n);
  return counts;
}

export interface OfferLetterView {
  html: string;
  updatedAt: string;
}

/** Writes or replaces a learner's offer letter (admin); sanitized before it is stored. */
export async function setOfferLetter(
  { db, bus }: MessageDeps,
  input: { learnerId: string; html: string; updatedBy: string | null; now?: Date },
): Promise<OfferLetterView> {
  const body = sanitizeMessageHtml(input.html);
  if (!body) throw new EmptyMessageError();
  const updatedAt = (input.now ?? new Date()).toISOString();
  await db
    .insertInto("offer_letter")
    .values({ learnerId: input.learnerId, body, updatedBy: input.updatedBy, updatedAt })
    .onConflict((oc) => oc.column("learnerId").doUpdateSet({ body, updatedBy: input.updatedBy, updatedAt }))
    .execute();
  await bus.publish(userTopic(input.learnerId), { type: "offer-letter" });
  return { html: body, updatedAt };
}

export async function getOfferLetter(db: Db, learnerId: string): Promise<OfferLetterView | null> {
  const row = await db
    .selectFrom("offer_letter")
    .select(["body", "updatedAt"])
    .where("learnerId", "=", learnerId)
    .executeTakeFirst();
  return row ? { html: sanitizeMessageHtml(row.body), updatedAt: row.updatedAt } : null;
}
