import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
// Relative, with extensions: bench/events.ts runs this file under plain Node (no path aliases).
import { personName } from "../accounts/person-name.ts";
import { compiledOnce } from "../db/compiled-once.server.ts";
import { queueMessageEmails } from "../mail/queue-emails.server.ts";
import { userTopic } from "../realtime/events.ts";
import { textLimits } from "../core/text.ts";
import {
  maxMarkedAtOnce,
  maxMessagePages,
  messagePageSize,
  perKind,
  readableKinds,
  type MessageKind,
  type ReadableKind,
} from "./kinds.ts";
import { htmlFromTypedText, sanitizeMessageHtml } from "./sanitize.server.ts";
import { inTransaction, writing } from "~/core/transaction.server";

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
  deps: MessageDeps,
  input: { learnerId: string; kind: MessageKind; html: string; sentBy: string | null; now?: Date },
): Promise<MessageView | MessageRefusal> {
  const prepared = prepareMessageBody(input.html);
  if ("refused" in prepared) return prepared;
  return storeMessage(deps, { ...input, body: prepared.body });
}

/** Stores a message whose body `prepareMessageBody` already made, so it is not made twice. */
export async function storeMessage(
  { db, bus }: MessageDeps,
  input: { learnerId: string; kind: MessageKind; body: string; sentBy: string | null; now?: Date },
): Promise<MessageView> {
  const row = {
    id: randomUUID(),
    learnerId: input.learnerId,
    kind: input.kind,
    body: input.body,
    sentBy: input.sentBy,
    sentAt: (input.now ?? new Date()).toISOString(),
    readAt: null,
  };
  await inTransaction({ db, bus }, { people: [input.learnerId] }, async (trx, held) => {
    await trx.insertInto("message").values(row).execute();
    await queueMessageEmails(trx, held, input.kind, [row.id]);
  });
  await bus.publish(userTopic(input.learnerId), { type: "messages", kind: input.kind });
  return { id: row.id, kind: row.kind, html: row.body, sentAt: row.sentAt, read: false };
}

/** A message as the learner's popup lists it: with who sent it. */
export interface ListedMessage extends MessageView {
  /** The sender's name, or null for one whose account is gone. */
  sentBy: string | null;
}

export interface MessagePage {
  messages: ListedMessage[];
  /** There are older messages than these. */
  more: boolean;
}

/** A learner's messages with what names their sender (the sender may be gone: a left join). */
export function withSender(db: Db, learnerId: string) {
  return db
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
    .where("message.learnerId", "=", learnerId);
}

/**
 * A learner's newest messages of one kind, `pages` pages of them, as stored (sanitized when
 * sent). Reading the newest N rather than paging by cursor keeps the list one piece of loader
 * data, which a live update simply reads again.
 */
export async function listMessages(db: Db, learnerId: string, kind: MessageKind, pages = 1): Promise<MessagePage> {
  const limit = messagePageSize * Math.min(Math.max(1, Math.trunc(pages)), maxMessagePages);
  const rows = await withSender(db, learnerId)
    .where("message.kind", "=", kind)
    .orderBy("message.sentAt", "desc")
    .orderBy("message.id", "desc")
    .limit(limit + 1)
    .execute();
  const messages = rows.slice(0, limit).map((r) => ({
    id: r.id,
    kind: r.kind,
    html: r.body,
    sentAt: r.sentAt,
    read: r.readAt !== null,
    sentBy: senderName(r),
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
  /** When the learner was shown it in its popup; null if not yet. */
  readAt: string | null;
}

/** How many sent items a learner's page lists (the newest). */
const sentItemsLimit = 200;

/** A sender's name as learners and staff see it; null when the account is gone. */
function senderName(sender: { username: string | null; name: string | null; email: string | null }): string | null {
  return personName(sender) || null;
}

/** Everything sent to a learner, newest first: the latest `sentItemsLimit`, and whether there are older ones. */
export async function sentToLearner(db: Db, learnerId: string): Promise<{ items: SentItem[]; more: boolean }> {
  const rows = await withSender(db, learnerId)
    .orderBy("message.sentAt", "desc")
    .orderBy("message.id", "desc")
    .limit(sentItemsLimit + 1)
    .execute();
  const items = rows.slice(0, sentItemsLimit).map((r) => ({
    id: r.id,
    kind: r.kind,
    html: r.body,
    sentAt: r.sentAt,
    sentBy: senderName(r),
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
  const row = await writing(db, { people: [learnerId] }, (trx) =>
    trx
      .deleteFrom("message")
      .where("id", "=", messageId)
      .where("learnerId", "=", learnerId)
      .returning("kind")
      .executeTakeFirst(),
  );
  if (!row) return null;
  await bus.publish(userTopic(learnerId), { type: "messages", kind: row.kind });
  return row.kind;
}

/** How many unread items of each kind a learner has: the dashboard's badges. */
export type UnreadCounts = Record<ReadableKind, number>;

/** The badges' counts, every kind and the offer letter in one statement (every dashboard request reads them). */
export async function unreadCounts(db: Db, learnerId: string): Promise<UnreadCounts> {
  const counts: UnreadCounts = perKind(readableKinds, () => 0);
  // Unread feedback on assignments counts with the tasks (the Tasks popup shows it): two rows.
  for (const row of await unreadRows(db, learnerId)) {
    if (row.kind in counts) counts[row.kind as ReadableKind] += Number(row.n);
  }
  return counts;
}

const unreadRows = compiledOnce((db: Db, learnerId: string) =>
  db
    .selectFrom("message")
    .select((eb) => [eb.ref("kind").$castTo<string>().as("kind"), eb.fn.countAll<number | string>().as("n")])
    .where("learnerId", "=", learnerId)
    .where("readAt", "is", null)
    .groupBy("kind")
    .unionAll(
      db
        .selectFrom("offer_letter")
        .select((eb) => [sql<string>`'offer'`.as("kind"), eb.fn.countAll<number | string>().as("n")])
        .where("learnerId", "=", learnerId)
        .where("readAt", "is", null),
    )
    .unionAll(
      db
        .selectFrom("assignment_comment")
        .select((eb) => [sql<string>`'task'`.as("kind"), eb.fn.countAll<number | string>().as("n")])
        .where("learnerId", "=", learnerId)
        .where("readAt", "is", null),
    ),
);

/**
 * Marks read what the learner was shown: these ids of one kind (for the offer letter, the
 * version shown, its updatedAt), and only the learner's own, so another learner's ids change
 * nothing. Tells the learner's open tabs when something changed; returns how many did.
 */
export async function markShownRead(
  { db, bus }: MessageDeps,
  learnerId: string,
  kind: ReadableKind,
  ids: readonly string[],
  now = new Date(),
): Promise<number> {
  const shown = [...new Set(ids)].slice(0, maxMarkedAtOnce);
  if (shown.length === 0) return 0;
  const readAt = now.toISOString();
  if (kind === "offer") {
    // A letter replaced since it was shown has another updatedAt, and stays unread.
    const result = await writing(db, { privately: [learnerId] }, (trx) =>
      trx
        .updateTable("offer_letter")
        .set({ readAt })
        .where("learnerId", "=", learnerId)
        .where("readAt", "is", null)
        .where("updatedAt", "in", shown)
        .executeTakeFirst(),
    );
    const changed = Number(result.numUpdatedRows);
    if (changed > 0) await bus.publish(userTopic(learnerId), { type: "offer-letter" });
    return changed;
  }
  // Read marks show on the learner's own pages only (staff's list counts what was sent).
  const changed = await writing(db, { privately: [learnerId] }, async (trx) => {
    let count = 0;
    for (let i = 0; i < shown.length; i += 500) {
      const result = await trx
        .updateTable("message")
        .set({ readAt })
        .where("learnerId", "=", learnerId)
        .where("kind", "=", kind)
        .where("readAt", "is", null)
        .where("id", "in", shown.slice(i, i + 500))
        .executeTakeFirst();
      count += Number(result.numUpdatedRows);
    }
    return count;
  });
  // The learner's other tabs lower their badge too.
  if (changed > 0) await bus.publish(userTopic(learnerId), { type: "messages", kind });
  return changed;
}

/** Deletes a learner's messages of one kind (admin clear); returns how many. */
export async function clearMessages({ db, bus }: MessageDeps, learnerId: string, kind: MessageKind): Promise<number> {
  const result = await writing(db, { people: [learnerId] }, (trx) =>
    trx.deleteFrom("message").where("learnerId", "=", learnerId).where("kind", "=", kind).executeTakeFirst(),
  );
  await bus.publish(userTopic(learnerId), { type: "messages", kind });
  return Number(result.numDeletedRows);
}

export interface OfferLetterView {
  html: string;
  /** When it was written; also names this version when the learner marks it read. */
  updatedAt: string;
}

export interface StoredOfferLetter extends OfferLetterView {
  /** The writer's name, or null for one whose account is gone. */
  sentBy: string | null;
  /** When the learner read this version; null if not yet. */
  readAt: string | null;
}

/** Writes or replaces a learner's offer letter (admin); sanitized before it is stored, and unread until shown. */
export async function setOfferLetter(
  { db, bus }: MessageDeps,
  input: { learnerId: string; html: string; updatedBy: string | null; now?: Date },
): Promise<OfferLetterView | MessageRefusal> {
  const prepared = prepareMessageBody(input.html);
  if ("refused" in prepared) return prepared;
  const { body } = prepared;
  const updatedAt = (input.now ?? new Date()).toISOString();
  await writing(db, { people: [input.learnerId] }, (trx) =>
    trx
      .insertInto("offer_letter")
      .values({ learnerId: input.learnerId, body, updatedBy: input.updatedBy, updatedAt, readAt: null })
      .onConflict((oc) =>
        oc.column("learnerId").doUpdateSet({ body, updatedBy: input.updatedBy, updatedAt, readAt: null }),
      )
      .execute(),
  );
  await bus.publish(userTopic(input.learnerId), { type: "offer-letter" });
  return { html: body, updatedAt };
}

export async function getOfferLetter(db: Db, learnerId: string): Promise<StoredOfferLetter | null> {
  const row = await db
    .selectFrom("offer_letter")
    .leftJoin("user as sender", "sender.id", "offer_letter.updatedBy")
    .select([
      "offer_letter.body",
      "offer_letter.updatedAt",
      "offer_letter.readAt",
      "sender.username",
      "sender.name",
      "sender.email",
    ])
    .where("offer_letter.learnerId", "=", learnerId)
    .executeTakeFirst();
  return row ? { html: row.body, updatedAt: row.updatedAt, sentBy: senderName(row), readAt: row.readAt } : null;
}
