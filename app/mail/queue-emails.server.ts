import { sql } from "kysely";
// Relative, with extensions: bench/events.ts runs the message code under plain Node (no path aliases).
import type { Db } from "../db/database.server.ts";
import type { MessageKind } from "../messages/kinds.ts";
import type { EventBus } from "../realtime/bus.server.ts";
import { mailTopic } from "../realtime/events.ts";
import type { EmailKind } from "./email-kinds.ts";

/**
 * Queues an email for each of these just-sent messages whose learner wants that kind at once,
 * in the caller's transaction: the messages and their emails land together or not at all.
 */
export async function queueMessageEmails(trx: Db, bus: EventBus, kind: MessageKind, messageIds: string[]) {
  if ((await queueEmails(trx, "message", kind, messageIds)) > 0) await bus.publish(mailTopic, { type: "mail-queued" });
}

/**
 * Queues the email bringing each of these just-recorded documents to its holder, if they want
 * it at once (the caller tells the mail workers after its commit).
 */
export async function queueDocumentEmails(trx: Db, documentIds: string[]) {
  await queueEmails(trx, "document", "document", documentIds);
}

/**
 * One insert…select: a job keyed "<table>:<id>" (so none is queued twice) for each row whose
 * learner has no choice stored or chose this kind 'immediate'. Returns how many were queued.
 */
async function queueEmails(trx: Db, table: "message" | "document", kind: EmailKind, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const now = Date.now();
  const result = await trx
    .insertInto("mail_job")
    .columns(["key", "kind", "learnerId", "refId", "status", "attempts", "nextAttemptAt", "createdAt"])
    .expression((eb) =>
      eb
        .selectFrom(table)
        .leftJoin("email_preference", "email_preference.learnerId", `${table}.learnerId`)
        .select([
          sql<string>`${sql.lit(`${table}:`)} || ${sql.ref(`${table}.id`)}`.as("key"),
          sql.lit(kind).as("kind"),
          `${table}.learnerId`,
          `${table}.id`,
          sql.lit("pending").as("status"),
          sql.lit(0).as("attempts"),
          sql.lit(now).as("nextAttemptAt"),
          sql.lit(new Date(now).toISOString()).as("createdAt"),
        ])
        .where(`${table}.id`, "in", ids)
        // A document whose holder erased their account has no one to email.
        .where(`${table}.learnerId`, "is not", null)
        .where((w) =>
          w.or([w("email_preference.learnerId", "is", null), w(sql.ref(`email_preference.${kind}`), "=", "immediate")]),
        ),
    )
    .onConflict((conflict) => conflict.column("key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
