import { randomUUID } from "node:crypto";
import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
import { staffTopic, userTopic } from "~/realtime/events";
import { checkTaskLink, maxTaskLinksPerLearner, taskLinkMessages } from "./task-link-rules";

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
  // One statement: the row goes in only while the learner has fewer than the maximum.
  const inserted = await db
    .insertInto("task_link")
    .columns(["id", "learnerId", "link", "createdAt"])
    .expression(
      db
        .selectNoFrom((eb) => [
          eb.val(row.id).as("id"),
          eb.val(row.learnerId).as("learnerId"),
          eb.val(row.link).as("link"),
          eb.val(row.createdAt).as("createdAt"),
        ])
        .where(
          (eb) =>
            eb
              .selectFrom("task_link")
              .select((sub) => sub.fn.countAll().as("n"))
              .where("learnerId", "=", learnerId),
          "<",
          maxTaskLinksPerLearner,
        ),
    )
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return { ok: false, message: taskLinkMessages.tooMany };
  await Promise.all([
    bus.publish(userTopic(learnerId), { type: "task-links" }),
    bus.publish(staffTopic, { type: "task-links", learnerId }),
  ]);
  return { ok: true, taskLink: { id: row.id, link: row.link, createdAt: row.createdAt } };
}

/** A learner's links, newest first. */
export async function listTaskLinks(db: Db, learnerId: string): Promise<TaskLinkView[]> {
  return db
    .selectFrom("task_link")
    .select(["id", "link", "createdAt"])
    .where("learnerId", "=", learnerId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** Deletes one of the learner's own links; another learner's id deletes nothing (false). */
export async function deleteTaskLink(
  { db, bus }: { db: Db; bus: EventBus },
  learnerId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom("task_link")
    .where("id", "=", id)
    .where("learnerId", "=", learnerId)
    .executeTakeFirst();
  const deleted = Number(result.numDeletedRows) > 0;
  if (deleted) {
    await Promise.all([
      bus.publish(userTopic(learnerId), { type: "task-links" }),
      bus.publish(staffTopic, { type: "task-links", learnerId }),
    ]);
  }
  return deleted;
}
