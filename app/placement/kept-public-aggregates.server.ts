import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
import { publicSiteTopic, staffTopic } from "~/realtime/events";
import { publicAggregates, type PublicAggregates } from "./public-outcomes.server";

// /outcomes and the landing figure read every publishable batch (about a second of work at
// 100,000 learners), but a learner giving or withdrawing consent changes only the names. The
// aggregates are kept between renders and forgotten when placement records change, so a
// learner toggling consent costs one read of the names, not of every batch.

/** Kept no longer than this even without an event: a safety net for a missed one. */
const keepForMs = 10 * 60_000;

interface Kept {
  today: string;
  keptAt: number;
  aggregates: Promise<PublicAggregates>;
}

/** Replaced by each forget, so that a read already under way is not kept either. */
let keptByDb = new WeakMap<Db, Kept>();

/** The aggregates as kept, or read now (one read shared by everyone who asks meanwhile). */
export function keptPublicAggregates(db: Db, today: string): Promise<PublicAggregates> {
  const found = keptByDb.get(db);
  if (found && found.today === today && performance.now() - found.keptAt < keepForMs) return found.aggregates;
  const kept = keptByDb;
  const aggregates = publicAggregates(db, today);
  const entry = { today, keptAt: performance.now(), aggregates };
  kept.set(db, entry);
  // A failed read is not kept: the next render tries again.
  aggregates.catch(() => {
    if (kept.get(db) === entry) kept.delete(db);
  });
  return aggregates;
}

/** Forgets the kept aggregates whenever placement records (not only consent) or public pages change. */
export function forgetPublicAggregatesOnChange(bus: EventBus): () => void {
  const forget = () => {
    keptByDb = new WeakMap();
  };
  const stops = [
    bus.subscribe(staffTopic, (event) => {
      if ((event.type === "placement" && !event.consentOnly) || event.type === "resync") forget();
    }),
    bus.subscribe(publicSiteTopic, forget),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
