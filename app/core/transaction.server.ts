import type { Db } from "~/db/database.server";
import { touchQuery, type Touches } from "~/db/change-versions.server";
import type { EventBus, Listener } from "~/realtime/bus.server";
import type { RealtimeEvent } from "~/realtime/events";

export type { Touches };

/**
 * Holds the events an action publishes until its transaction has committed: a learner told
 * earlier could fetch before the row is visible (PostgreSQL notifies over another connection).
 */
class AfterCommitBus implements EventBus {
  private readonly held: [string, RealtimeEvent][] = [];
  constructor(private readonly bus: EventBus) {}
  async publish(topic: string, event: RealtimeEvent): Promise<void> {
    this.held.push([topic, event]);
  }
  async publishMany(events: readonly (readonly [string, RealtimeEvent])[]): Promise<void> {
    for (const [topic, event] of events) this.held.push([topic, event]);
  }
  subscribe(topic: string, listener: Listener): () => void {
    return this.bus.subscribe(topic, listener);
  }
  async close(): Promise<void> {}
  async flush(): Promise<void> {
    await this.bus.publishMany(this.held.splice(0));
  }
}

/**
 * Says which pages show what this transaction writes (decision 016): the versions of those
 * pages' kept answers are raised as it commits, and only those. A transaction that writes
 * without saying raises those of every table it wrote (app/db/change-versions.server.ts:
 * everyone's, for most). Called with the transaction (`trx`); outside one, it raises them at once.
 */
export async function touch(db: Db, touches: Touches): Promise<void> {
  await db.executeQuery(touchQuery(touches));
}

/**
 * Runs an action and its audit row in one transaction, then publishes what it announced.
 * `touches` names the pages that show what it changes (see `touch`; the work may name more).
 * Given a transaction, it runs in that one (whose caller publishes after its commit).
 */
export async function inTransaction<T>(
  { db, bus }: { db: Db; bus: EventBus },
  touches: Touches,
  work: (trx: Db, bus: EventBus) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) {
    await touch(db, touches);
    return work(db, bus);
  }
  const held = new AfterCommitBus(bus);
  const result = await db.transaction().execute(async (trx) => {
    await touch(trx, touches);
    return work(trx, held);
  });
  await held.flush();
  return result;
}

/**
 * Runs `work` with these touches (see `touch`): in the caller's transaction when `db` is one,
 * else in a transaction of its own, so its writes and their versions commit together.
 * Publish what changed after it returns, not inside.
 */
export async function writing<T>(db: Db, touches: Touches, work: (db: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    await touch(db, touches);
    return work(db);
  }
  return db.transaction().execute(async (trx) => {
    await touch(trx, touches);
    return work(trx);
  });
}
