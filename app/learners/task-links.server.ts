import { compiledOnce } from "~/db/compiled-once.server";
import { randomUUID } from "node:crypto";
import { PostgresAdapter } from "kysely";
import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
import { staffTopic, userTopic } from "~/realtime/events";
import { checkTaskLink, maxTaskLinksPerLearner, taskLinkMessages } from "./task-link-rules";
import { writing } from "~/core/transaction.server";

export interface TaskLinkView {
  id: string;
  link: string;
  createdAt: string;
}

export type AddTaskLinkResult = { ok: true; taskLink: TaskLinkView } | { ok: false; message: string };

/** Adds a learner's task link after the same checks the form makes; staff see it live. */
export async function addTaskLink(
  { db, bus }: { db: Db; bus: EventBus },
  learnerId: string,
  input: unknown,
  now = new Date(),
): Promise<AddTaskLinkResult> {
  const check = checkTaskLink(input);
  if (!check.ok) return check;
  const row = { id: randomUUID(), learnerId, link: check.link, createdAt: now.toISOString() };
  // The count and the insert in one transaction, with the learner's row locked on PostgreSQL
  // (SQLite runs one transaction at a time), so concurrent adds can't pass the maximum together.
  const inserted = await writing(db, { people: [learnerId] }, async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) {
      await trx.selectFrom("user").select("id").where("id", "=", learnerId).forUpdate().execute();
    }
    const { n } = await trx
      .selectFrom("task_link")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("learnerId", "=", learnerId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= maxTaskLinksPerLearner) return false;
    await trx.insertInto("task_link").values(row).execute();
    return true;
  });
  if (!inserted) return { ok: false, message: taskLinkMessages.tooMany };
  await Promise.all([
    bus.publish(userTopic(learnerId), { type: "task-links" }),
    bus.publish(staffTopic, { type: "task-links", learnerId }),
  ]);
  return { ok: true, taskLink: { id: row.id, link: row.link, createdAt: row.createdAt } };
}

/** A learner's links, newest first. */
export const listTaskLinks: (db: Db, learnerId: string) => Promise<TaskLinkView[]> = compiledOnce(
  (db: Db, learnerId: string) =>
    db
      .selectFrom("task_link")
      .select(["id", "link", "createdAt"])
      .where("learnerId", "=", learnerId)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc"),
);

/** Deletes one of the learner's own links; another learner's id deletes nothing (false). */
export async function deleteTaskLink(
  { db, bus }: { db: Db; bus: EventBus },
  learnerId: string,
  id: string,
): Promise<boolean> {
  const result = await writing(db, { people: [learnerId] }, (trx) =>
    trx.deleteFrom("task_link").where("id", "=", id).where("learnerId", "=", learnerId).executeTakeFirst(),
  );
  const deleted = Number(result.numDeletedRows) > 0;
  if (deleted) {
    await Promise.all([
      bus.publish(userTopic(learnerId), { type: "task-links" }),
      bus.publish(staffTopic, { type: "task-links", learnerId }),
    ]);
  }
  return deleted;
}
