import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";

/**
 * What a change needs: the database (or the caller's transaction) and the bus its events go
 * out on. Passed in by the page module or the staff gate, never looked up.
 */
export interface Deps {
  db: Db;
  bus: EventBus;
}
