import { randomUUID } from "node:crypto";
import type { Db } from "~/db/database.server";
import type { AuditEntry, StaffAction } from "./audit-actions";
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
  entry: { action: StaffAction; detail: string | null; targetId: string | null; target: string; count: number },
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
    })
    .execute();
}

/** The latest entries, newest first (admins only; the caller checks). */
export async function latestAudit(db: Db, limit = 200): Promise<AuditEntry[]> {
  const rows = await db
    .selectFrom("staff_audit")
    .select(["id", "actorName", "action", "detail", "target", "count", "createdAt"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}
