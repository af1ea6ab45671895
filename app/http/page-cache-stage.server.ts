import type http from "node:http";
import { countPageCache } from "~/metrics/metrics.server";
import type { EventBus } from "~/realtime/bus.server";
import { publicSiteTopic, staffTopic } from "~/realtime/events";
import { forgetPublicAggregates } from "~/placement/kept-public-aggregates.server";
import { publicPages, publicPaths, type PublicPageChange } from "~/site/public-pages";
import { isAnonymousRequest, isCacheableQuery } from "./anonymous-request";
import { pickEncoding, type Encoding } from "./encoding.server";
import { AnonymousPageCache, type AnonymousRenderer, type CachedPage } from "./page-cache.server";
import { PreparedHeadWriter, prepareHead, type PreparedHead } from "./prepared-head.server";
import { requestLimits } from "./request-limits.server";

/** Public pages built from records (placement outcomes): they follow the records' events. */
const livePages = publicPages.flatMap((page) =>
  "changesWith" in page ? [{ path: page.path, changesWith: page.changesWith as readonly PublicPageChange[] }] : [],
);
const livePageMaxAgeMs = 60 * 60_000;

export interface PageCacheStage {
  /**
   * Answers a GET or HEAD of a public page from a visitor without a session from the cache
   * (or a 304); returns false, having written nothing, for anything else or a page not rendered yet.
   */
  answer(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    pathname: string,
    rawUrl: string,
    queryAt: number,
    requestId: string,
  ): boolean;
  /** Renders every page now, so the first visitor after a start gets a hit. */
  warm(): Promise<void>;
  /** Stops following the events that change the pages. */
  stop(): void;
}

/**
 * A seed, restore or role change run beside the server (or psql, the sqlite3 shell) sends no
 * event: the mark is read every few seconds, and every page goes when it moved. Returns the stop.
 */
function followOutsideWrites(mark: (() => Promise<string>) | undefined, everyMs: number, changed: () => void) {
  if (!mark) return () => {};
  let last: string | undefined;
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    mark()
      .then((now) => {
        if (last !== undefined && now !== last) changed();
        last = now;
      })
      // A database that does not answer now is read again next time (readiness reports it).
      .catch(() => {})
      .finally(() => (reading = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The second stage: the public pages as an anonymous visitor sees them, rendered once and kept. */
export function pageCacheStage(options: {
  render: AnonymousRenderer;
  bus: EventBus;
  secureHeaders: Record<string, string>;
  /** Changes once a write made outside the server committed (DatabaseHandle.outsideWriteMark). */
  outsideWriteMark?: () => Promise<string>;
  /** How often that mark is read. */
  outsideCheckMs?: number;
}): PageCacheStage {
  const { secureHeaders, bus } = options;
  const pageCache = new AnonymousPageCache(
    options.render,
    new Set(publicPaths),
    new Map(livePages.map((page) => [page.path, livePageMaxAgeMs])),
  );
  const unsubscribe = [
    // Pages read from records: dropped when an instance says the records changed (the bus reaches
    // every instance), and rendered at least hourly for what the date alone changes.
    bus.subscribe(staffTopic, (event) => {
      if (event.type !== "placement" && event.type !== "resync") return;
      const change: PublicPageChange = event.type === "placement" && event.consentOnly ? "consent" : "placement";
      for (const page of livePages) if (page.changesWith.includes(change)) pageCache.drop(page.path);
    }),
    // Staff changed what a public page shows, on this instance or another (or events were missed).
    bus.subscribe(publicSiteTopic, () => pageCache.invalidate()),
    // A seed or restore may have changed placement records too: their kept aggregates go with the pages.
    // Each page is rendered again and served as it was until then, as for a placement change.
    followOutsideWrites(options.outsideWriteMark, options.outsideCheckMs ?? 2000, () => {
      forgetPublicAggregates();
      for (const path of pageCache.paths) pageCache.drop(path);
    }),
  ];

  // Each page's headers, validated and serialized once: as a flat name, value list (to which
  // an answer adds its request id) and as a prepared head.
  const cachedHeaders = new WeakMap<CachedPage, Partial<Record<Encoding, { list: string[]; head: PreparedHead }>>>();
  const headersFor = (page: CachedPage, encoding: Encoding) => {
    let byEncoding = cachedHeaders.get(page);
    if (!byEncoding) cachedHeaders.set(page, (byEncoding = {}));
    return (byEncoding[encoding] ??= (() => {
      const list = Object.entries({
        ...secureHeaders,
        "Content-Security-Policy": page.csp,
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "public, max-age=0, must-revalidate",
        Vary: "Accept-Encoding, Cookie",
        ETag: page.etag,
        "Content-Length": String(page.bodies[encoding].length),
        ...(encoding === "identity" ? {} : { "Content-Encoding": encoding }),
      }).flat();
      return { list, head: prepareHead(list) };
    })());
  };
  const preparedHeads = new PreparedHeadWriter(requestLimits.keepAliveTimeoutMs);

  return {
    answer(req, res, pathname, rawUrl, queryAt, requestId) {
      if (
        !pageCache.has(pathname) ||
        !isAnonymousRequest(req.headers.cookie) ||
        (queryAt !== -1 && !isCacheableQuery(rawUrl.slice(queryAt + 1)))
      ) {
        return false;
      }
      const page = pageCache.peek(pathname);
      countPageCache(page !== undefined);
      if (!page) return false;
      const encoding = pickEncoding(req.headers["accept-encoding"]);
      if (req.headers["if-none-match"] === page.etag) {
        res.writeHead(304, { ETag: page.etag, "X-Request-Id": requestId });
        res.end();
        return true;
      }
      const headers = headersFor(page, encoding);
      const body = page.bodies[encoding];
      if (!preparedHeads.send(req, res, headers.head, requestId, body)) {
        res.writeHead(200, [...headers.list, "X-Request-Id", requestId]);
        res.end(req.method === "HEAD" ? undefined : body);
      }
      return true;
    },
    warm: () => pageCache.warm(),
    stop() {
      for (const stop of unsubscribe) stop();
    },
  };
}
