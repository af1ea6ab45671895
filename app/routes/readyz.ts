import { pingDatabase } from "~/db/database.server";
import { isShuttingDown } from "~/http/shutdown.server";
import { getServices } from "~/platform/services.server";

/** A check that has not answered by then counts as failed: a load balancer must not wait on us. */
const checkTimeoutMs = 3_000;

async function within(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check().then((result) => result !== false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), checkTimeoutMs))),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness, for a load balancer: 200 when this instance can serve (its database answers and
 * its upload storage can be reached), 503 naming what failed, and 503 once it is shutting down
 * so that no new requests are sent its way. /healthz stays the liveness check.
 */
export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  if (isShuttingDown()) return Response.json({ status: "shutting down" }, { status: 503, headers });
  const { database, storage, logger } = await getServices();
  const [databaseUp, storageUp] = await Promise.all([
    within(() => pingDatabase(database.db)),
    within(() =>
      storage.ready().catch((error: unknown) => {
        logger.warn({ err: error }, "readiness: upload storage unavailable");
        throw error;
      }),
    ),
  ]);
  const checks = { database: databaseUp ? "up" : "down", storage: storageUp ? "up" : "down" };
  const failed = Object.entries(checks)
    .filter(([, state]) => state === "down")
    .map(([name]) => name);
  return failed.length === 0
    ? Response.json({ status: "ready", checks }, { headers })
    : Response.json({ status: "not ready", failed, checks }, { status: 503, headers });
}
