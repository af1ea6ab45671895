import { randomUUID } from "node:crypto";
import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
// Relative, with extensions: bench/events.ts runs this file under plain Node (no path aliases).
import { compiledOnce } from "../db/compiled-once.server.ts";
import { userTopic } from "../realtime/events.ts";
import { textLimits } from "../security/text.ts";
import type { MessageKind } from "./kinds.ts";
import { htmlFromTypedText, sanitizeMessageHtml } from "./sanitize.server.ts";

export interface MessageView {
  id: string;
  kind: MessageKind;
  /** Sanitized HTML, as stored. */
  html: string;
  sentAt: string;
  read: boolean;
}

export interface MessageDeps {
  db: Db;
  bus: EventBus;
}

/**
 * Why a text can't be stored: nothing left after sanitizing, more than the limit, or more lines
 * or tags than the sanitizer is given.
 */
export type MessageRefusal = { refused: "empty" | "too-long" | "too-many-parts" };

/** How many times `character` occurs in `text`, stopping one past `max`. */
function countUpTo(text: string, character: string, max: number): number {
  let count = 0;
  for (let at = text.indexOf(character); at !== -1 && count <= max; at = text.indexOf(character, at + 1)) count++;
  return count;
}

/**
 * Turns what staff typed (plain text, or HTML) into the HTML learners see, sanitized, for storing.
 * This is the only time the sanitizer runs: stored bodies are served as they are, so a read never
 * pays for it (100 large notices sanitized on every read once blocked the server for seconds).
 */
export function prepareMessageBody(typed: string): { body: string } | MessageRefusal {
  if (
    countUpTo(typed, "\n", textLimits.messageLines) >= textLimits.messageLines ||
    countUpTo(typed, "<", textLimits.messageTags) > textLimits.messageTags
  ) {
    return { refused: "too-many-parts" };
  }
  const body = sanitizeMessageHtml(htmlFromTypedText(typed)).replaceAll("<p></p>", "").trim();
  // Paragraphs of nothing but removed markup leave no text to read.
  if (!/[^\s]/.test(body.replace(/<[^>]*>/g, ""))) return { refused: "empty" };
  if (body.length > textLimits.message) return { refused: "too-long" };
  return { body };
}

/**
 * Sends a notice, task or certificate to one learner (the staff endpoints call this). The HTML
 * is sanitized before it is stored; the learner's open tabs are told at once.
 */
export async function sendMessage(
  { db, bus }: MessageDeps,
  input: { learnerId: string; kind: MessageKind; html: string; sentBy: string | null; now?: Date },
): Promise<MessageView | MessageRefusal> {
  const prepared = prepareMessageBody(input.html);
  if ("refused" in prepared) return prepared;
  const row = {
    id: randomUUID(),
    learnerId: input.learnerId,
    kind: input.kind,
    body: prepared.body,
    sentBy: input.sentBy,
    sentAt: (input.now ?? new Date()).toISOString(),
    readAt: null,
  };
  await db.insertInto("message").values(row).execute();
  await bus.publish(userTopic(input.learnerId), { type: "messages", kind: input.kind });
  return { id: row.id, kind: row.kind, html: row.body, sentAt: row.sentAt, read: false };
}

/** How many messages one page of a popup shows. */
export const messagePageSize = 50;

/** The most pages a popup shows at once ("Show older" adds one). */
export const maxMessagePages = 40;

export interface MessagePage {
  messages: MessageView[];
  /** There are older messages than these. */
  more: boolean;
}

/**
 * A learner's newest messages of one kind, `pages` pages of them, as stored (sanitized when
 * sent). Reading the newest N rather than paging by cursor keeps the list one piece of loader
 * data, which a live update simply reads again.
 */
export async function listMessages(db: Db, learnerId: string, kind: MessageKind, pages = 1): Promise<MessagePage> {
  const limit = messagePageSize * Math.min(Math.max(1, Math.trunc(pages)), maxMessagePages);
  const rows = await db
    .selectFrom("message")
    .select(["id", "kind", "body", "sentAt", "readAt"])
    .where("learnerId", "=", learnerId)
    .where("kind", "=", kind)
    .orderBy("sentAt", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const messages = rows.slice(0, limit).map((r) => ({
    id: r.id,
    kind: r.kind,
    html: r.body,
    sentAt: r.sentAt,
    read: r.readAt !== null,
  }));
  return { messages, more: rows.length > limit };
}

/** A message as staff see it on the learner's page: what was sent, by whom, and if it was read. */
export interface SentItem {
  id: string;
  kind: MessageKind;
  /** Sanitized HTML, as the learner sees it. */
  html: string;
  sentAt: string;
  /** The sender's name, or null for one whose account is gone. */
  sentBy: string | null;
  /** When the learner read it (notices are marked read when the popup opens); null if not yet. */
  readAt: string | null;
}

/** How many sent items a learner's page lists (the newest). */
const sentItemsLimit = 200;

/** Everything sent to a learner, newest first: the latest `sentItemsLimit`, and whether there are older ones. */
export async function sentToLearner(db: Db, learnerId: string): Promise<{ items: SentItem[]; more: boolean }> {
  const rows = await db
    .selectFrom("message")
    .leftJoin("user as sender", "sender.id", "message.sentBy")
    .select([
      "message.id",
      "message.kind",
      "message.body",
      "message.sentAt",
      "message.readAt",
      "sender.username",
      "sender.name",
      "sender.email",
    ])
    .where("message.learnerId", "=", learnerId)
    .orderBy("message.sentAt", "desc")
    .orderBy("message.id", "desc")
    .limit(sentItemsLimit + 1)
    .execute();
  const items = rows.slice(0, sentItemsLimit).map((r) => ({
    id: r.id,
    kind: r.kind,
    html: r.body,
    sentAt: r.sentAt,
    sentBy: r.username || r.name || r.email || null,
    readAt: r.readAt,
  }));
  return { items, more: rows.length > sentItemsLimit };
}

/** Deletes one message of a learner's; its kind, or null if it was not there. */
export async function deleteMessage(
  { db, bus }: MessageDeps,
  learnerId: string,
  messageId: string,
): Promise<MessageKind | null> {
  const row = await db
    .deleteFrom("message")
    .where("id", "=", messageId)
    .where("learnerId", "=", learnerId)
    .returning("kind")
    .executeTakeFirst();
  if (!row) return null;
  await bus.publish(userTopic(learnerId), { type: "messages", kind: row.kind });
  return row.kind;
}

/** Unread notices: the Notification badge. */
export async function unreadNoticeCount(db: Db, learnerId: string): Promise<number> {
  const [row] = await unreadNotices(db, learnerId);
  return Number(row?.n ?? 0);
}

const unreadNotices = compiledOnce((db: Db, learnerId: string) =>
  db
    .selectFrom("message")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("learnerId", "=", learnerId)
    .where("kind", "=", "notice")
    .where("readAt", "is", null),
);

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

export interface OfferLetterView {
  html: string;
  updatedAt: string;
}

/** Writes or replaces a learner's offer letter (admin); sanitized before it is stored. */
export async function setOfferLetter(
  { db, bus }: MessageDeps,
  input: { learnerId: string; html: string; updatedBy: string | null; now?: Date },
): Promise<OfferLetterView | MessageRefusal> {
  const prepared = prepareMessageBody(input.html);
  if ("refused" in prepared) return prepared;
  const { body } = prepared;
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
  return row ? { html: row.body, updatedAt: row.updatedAt } : null;
}
