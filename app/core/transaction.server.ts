import type { Db } from "~/db/database.server";
import type { EventBus, Listener } from "~/realtime/bus.server";
import type { RealtimeEvent } from "~/realtime/events";

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

/** Runs an action and its audit row in one transaction, then publishes what it announced. */
export async function inTransaction<T>(
  { db, bus }: { db: Db; bus: EventBus },
  work: (trx: Db, bus: EventBus) => Promise<T>,
): Promise<T> {
  const held = new AfterCommitBus(bus);
  const result = await db.transaction().execute((trx) => work(trx, held));
  await held.flush();
  return result;
}
