import type http from "node:http";
import { once } from "node:events";
import type { Logger } from "~/logging/logger.server";

type ShutdownHook = () => void | Promise<void>;
const shutdownHooks = new Set<ShutdownHook>();
let shuttingDown = false;

/** How long requests in flight get to finish once the server stops, before their connections are cut. */
const shutdownGraceMs = 10_000;

/** True from the moment the server starts stopping (readiness then says so). */
export function isShuttingDown(): boolean {
  return shuttingDown;
}

/** Long-lived responses (event streams) register here to be ended when the server stops. */
export function onShutdown(hook: ShutdownHook): () => void {
  shutdownHooks.add(hook);
  return () => shutdownHooks.delete(hook);
}

/**
 * The server's stop, made once however often it is asked for: stop accepting connections and
 * close the idle ones, end the long-lived responses (onShutdown), let requests in flight finish
 * (for at most shutdownGraceMs), then `release` what the server used (the database).
 */
export function gracefulClose(server: http.Server, release: () => Promise<void>, logger: Logger): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      shuttingDown = true;
      const closed = once(server, "close");
      server.close();
      server.closeIdleConnections();
      await Promise.allSettled([...shutdownHooks].map((hook) => hook()));
      const force = setTimeout(() => server.closeAllConnections(), shutdownGraceMs);
      await closed;
      clearTimeout(force);
      await release();
      logger.info("stopped");
    })());
}
