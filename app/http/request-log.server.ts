import type { RouterContextProvider } from "react-router";
import type { Logger } from "~/logging/logger.server";
import { observeRequest } from "~/metrics/metrics.server";
import { routePatternContext } from "./request-context";
import { allowedMethods } from "./request-target.server";

/** Milliseconds to one decimal, for the logs. */
const round = (ms: number) => Math.round(ms * 10) / 10;

export interface RequestLog {
  /**
   * An answer from memory (a static file, a cached public page): counted in the metrics and
   * logged at debug, since a line each would cost more than the answer (a proxy in front logs them).
   */
  fromMemory(route: string, method: string, path: string, requestId: string, status: number, started: number): void;
  /**
   * Any other answer, once it finished: a line at info, and the metrics under `route`: a fixed
   * name, a kept page's path, or the request's context, where the router left the matched pattern.
   */
  finished(
    route: string | RouterContextProvider,
    method: string,
    path: string,
    requestId: string,
    status: number,
    started: number,
  ): void;
}

/** One pino line per request (id, method, path, status, duration) and the request metrics, unless METRICS=off. */
export function requestLog(logger: Logger, metrics: boolean): RequestLog {
  return {
    fromMemory(route, method, path, requestId, status, started) {
      const ms = performance.now() - started;
      if (logger.isLevelEnabled("debug")) {
        logger.debug({ reqId: requestId, method, path, status, ms: round(ms) }, "request");
      }
      if (metrics) observeRequest(route, method, status, ms / 1000);
    },
    finished(route, method, path, requestId, status, started) {
      const ms = performance.now() - started;
      logger.info({ reqId: requestId, method, path, status, ms: round(ms) }, "request");
      if (!metrics) return;
      const label = typeof route === "string" ? route : (route.get(routePatternContext) ?? "unmatched");
      observeRequest(label, allowedMethods.includes(method) ? method : "other", status, ms / 1000);
    },
  };
}
