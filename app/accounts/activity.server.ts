import type { Db } from "~/db/database.server";
import { writing } from "~/core/transaction.server";

/**
 * When each person was last seen, for the staff list's "Last active". Never a write per
 * request: a signed-in request only notes the person in memory when their stored time is older
 * than `activityStep`, and the noted people are written together, in one statement per 500, at
 * most once every `activityFlushEvery` per instance (on a later request). So each person's time
 * is at most a few minutes behind, and the database (whose every write makes the kept signed-in
 * pages be made again) sees one small write a minute at most.
 */
export const activityStep = 10 * 60_000;
export const activityFlushEvery = 60_000;

interface Pending {
  ids: Set<string>;
  lastFlush: number;
  flushing: Promise<void> | null;
}

const pendingByDb = new WeakMap<Db, Pending>();

function pendingOf(db: Db): Pending {
  let pending = pendingByDb.get(db);
  if (!pending) {
    // The first write waits a full interval: a process that just started writes nothing at once.
    pending = { ids: new Set(), lastFlush: Date.now(), flushing: null };
    pendingByDb.set(db, pending);
  }
  return pending;
}

/** Notes a signed-in request by this person, whose stored last-active time is `stored`. */
export async function noteActivity(db: Db, userId: string, stored: string | null, now = Date.now()): Promise<void> {
  if (stored && now - Date.parse(stored) < activityStep) return;
  const pending = pendingOf(db);
  pending.ids.add(userId);
  if (now - pending.lastFlush >= activityFlushEvery) await flushActivity(db, now);
}

/** Writes the noted people's last-active time (now) and forgets them. */
export async function flushActivity(db: Db, now = Date.now()): Promise<void> {
  const pending = pendingOf(db);
  if (pending.flushing) return pending.flushing;
  pending.lastFlush = now;
  const ids = [...pending.ids];
  pending.ids.clear();
  if (ids.length === 0) return;
  const at = new Date(now).toISOString();
  pending.flushing = (async () => {
    try {
      // Staff pages alone show it (the workspace's sort and filter by last activity).
      await writing(db, { staff: true }, async (trx) => {
        for (let i = 0; i < ids.length; i += 500) {
          await trx
            .updateTable("user")
            .set({ lastActiveAt: at })
            .where("id", "in", ids.slice(i, i + 500))
            .execute();
        }
      });
    } finally {
      pending.flushing = null;
    }
  })();
  return pending.flushing;
}
