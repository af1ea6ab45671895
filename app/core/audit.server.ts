import { randomUUID } from "node:crypto";
import type { Db } from "~/db/database.server";
import type { StaffAction } from "./audit-actions";
import type { Actor } from "./people";

let lastStamp = 0;

/**
 * The entry's time, strictly after this process's previous one (by a millisecond at most), so
 * that actions made within one millisecond still list in the order they happened.
 */
function stamp(now: Date): string {
  lastStamp = Math.max(now.getTime(), lastStamp + 1);
  return new Date(lastStamp).toISOString();
}

/** Records one staff action; called with the action's own transaction, so both or neither land. */
export async function recordAudit(
  trx: Db,
  actor: Actor,
  entry: {
    action: StaffAction;
    detail: string | null;
    targetId: string | null;
    target: string;
    count: number;
    /** The text the action sent, as plain text (`textFromHtml` of a stored body). */
    sentText?: string | null;
  },
  now = new Date(),
): Promise<void> {
  await trx
    .insertInto("staff_audit")
    .values({
      id: randomUUID(),
      actorId: actor.id,
      actorName: actor.name,
      action: entry.action,
      detail: entry.detail,
      targetId: entry.targetId,
      target: entry.target,
      count: entry.count,
      createdAt: stamp(now),
      sentText: entry.sentText ?? null,
    })
    .execute();
}
