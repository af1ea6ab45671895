import cluster from "node:cluster";
import { AggregatorRegistry, Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from "prom-client";

// What /metrics reports (Prometheus text format). Every label has a bounded set of values:
// routes are React Router patterns or a few fixed names, never a request's own path.

const registry = new Registry();
let defaultsOn = false;
// Several server processes: the primary collects this registry from each worker (below). A
// worker starts answering it once it has made an AggregatorRegistry of its own.
if (cluster.isWorker) {
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/**
 * http_request_duration_seconds, kept by hand: a histogram by route, method and status whose
 * observation is two map lookups and a few additions, about 0.04 µs (prom-client's Histogram
 * validates and hashes its labels on every call: about 0.55 µs), because it runs on every
 * request, the cached landing page's included. prom-client's registry writes it out like its own.
 */
class RequestHistogram {
  readonly name = "http_request_duration_seconds";
  readonly help =
    "Requests by route (the React Router pattern, or static, refused, unmatched), method and status, with how long each took.";
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly bounds = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  private readonly series = new Map<string, Map<number, { counts: number[]; sum: number }>>();

  observe(route: string, method: string, status: number, seconds: number): void {
    const key = `${method} ${route}`;
    let byStatus = this.series.get(key);
    if (!byStatus) this.series.set(key, (byStatus = new Map()));
    let entry = byStatus.get(status);
    if (!entry) byStatus.set(status, (entry = { counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0 }));
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    entry.counts[bucket]!++;
    entry.sum += seconds;
  }

  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const [key, byStatus] of this.series) {
      const space = key.indexOf(" ");
      const [method, route] = [key.slice(0, space), key.slice(space + 1)];
      for (const [status, { counts, sum }] of byStatus) {
        const labels = { route, method, status };
        let cumulative = 0;
        counts.forEach((count, i) => {
          cumulative += count;
          const le = i < this.bounds.length ? this.bounds[i]! : "+Inf";
          values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
        });
        values.push({ labels, value: sum, metricName: `${this.name}_sum` });
        values.push({ labels, value: cumulative, metricName: `${this.name}_count` });
      }
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

const requestSeconds = new RequestHistogram();
registry.registerMetric(requestSeconds as unknown as Metric);

const uploadBytes = new Counter({
  name: "upload_bytes_total",
  help: "Bytes of uploaded files stored, by kind (resume, photo).",
  labelNames: ["kind"] as const,
  registers: [registry],
});

const documentsIssued = new Counter({
  name: "documents_issued_total",
  help: "Documents (certificates, offer letters) issued by this instance.",
  registers: [registry],
});

/** Counted on the anonymous page cache's path with plain additions; reported when scraped. */
const pageCache = { hits: 0, misses: 0 };

new Counter({
  name: "page_cache_requests_total",
  help: "Anonymous requests for a cached public page: answered from the cache (hit) or rendered (miss).",
  labelNames: ["result"] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ result: "hit" }, pageCache.hits);
    this.inc({ result: "miss" }, pageCache.misses);
  },
});

/** Counted likewise on the signed-in pages kept while the database is unchanged. */
const signedInMemory = { hits: 0, misses: 0 };

new Counter({
  name: "signed_in_memory_requests_total",
  help: "Signed-in requests for a kept page or its data: answered from memory (hit) or by the router (miss).",
  labelNames: ["result"] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ result: "hit" }, signedInMemory.hits);
    this.inc({ result: "miss" }, signedInMemory.misses);
  },
});

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** What the gauges read when scraped: this instance's open streams and database pool. */
interface Sources {
  openStreams(): number;
  /** PostgreSQL only. */
  pool?: () => PoolStats;
}

let sources: Sources | undefined;

new Gauge({
  name: "event_streams_open",
  help: "Server-sent event streams open on this instance.",
  registers: [registry],
  collect() {
    this.set(sources?.openStreams() ?? 0);
  },
});

new Gauge({
  name: "db_pool_connections",
  help: "PostgreSQL pool connections: total open, idle, and requests waiting for one.",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    this.reset();
    const pool = sources?.pool?.();
    if (!pool) return;
    this.set({ state: "total" }, pool.total);
    this.set({ state: "idle" }, pool.idle);
    this.set({ state: "waiting" }, pool.waiting);
  },
});

/** Points the gauges at the running services (the latest built wins, as in tests). */
export function watchMetricSources(next: Sources): void {
  sources = next;
  if (!defaultsOn) {
    // Process CPU, memory, event-loop delay, GC: cheap, and read only when scraped (but the loop delay sampler).
    collectDefaultMetrics({ register: registry });
    // Gauges named like counters, which Prometheus's linter refuses; each is the sum of the
    // by-type gauge beside it (nodejs_active_handles{type} and the like), so nothing is lost.
    for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"])
      registry.removeSingleMetric(name);
    defaultsOn = true;
  }
}

export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  requestSeconds.observe(route, method, status, seconds);
}

export function countPageCache(hit: boolean): void {
  if (hit) pageCache.hits++;
  else pageCache.misses++;
}

export function countSignedInMemory(hit: boolean): void {
  if (hit) signedInMemory.hits++;
  else signedInMemory.misses++;
}

export function countUploadBytes(kind: "resume" | "photo", bytes: number): void {
  uploadBytes.inc({ kind }, bytes);
}

/** For the documents code: call once per batch issued, with how many. */
export function countDocumentsIssued(n = 1): void {
  documentsIssued.inc(n);
}

/** A worker's question to the primary for every worker's metrics, and its answer. */
interface MetricsMessage {
  upskillMetrics: "ask" | "answer";
  id: number;
  body?: string;
  error?: string;
}

const isMetricsMessage = (message: unknown): message is MetricsMessage =>
  typeof message === "object" && message !== null && "upskillMetrics" in message;

let asked = 0;
const waiting = new Map<number, (answer: MetricsMessage) => void>();

/**
 * The metrics in Prometheus's text format: this process's, or in a worker of several server
 * processes every worker's, summed by prom-client's AggregatorRegistry in the primary (so a
 * scrape sees the whole server, whichever worker took its connection); this process's alone if
 * a worker did not answer within prom-client's 5 s.
 */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  if (!cluster.isWorker || !process.send) return { body: await registry.metrics(), contentType: registry.contentType };
  if (asked === 0)
    process.on("message", (message: unknown) => {
      if (isMetricsMessage(message) && message.upskillMetrics === "answer") waiting.get(message.id)?.(message);
    });
  const id = ++asked;
  const answer = await new Promise<MetricsMessage>((resolve, reject) => {
    waiting.set(id, resolve);
    process.send!({ upskillMetrics: "ask", id } satisfies MetricsMessage, undefined, undefined, (error) => {
      if (error) reject(error);
    });
  }).finally(() => waiting.delete(id));
  // A worker that did not answer (starting, or stopping): this one's own, rather than none.
  return { body: answer.body ?? (await registry.metrics()), contentType: registry.contentType };
}

/** The primary's half: answers a worker's question with every worker's metrics, summed. */
export function collectMetricsForWorkers(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: unknown) => {
    if (!isMetricsMessage(message) || message.upskillMetrics !== "ask") return;
    const reply = (fields: Pick<MetricsMessage, "body" | "error">) => {
      if (worker.isConnected())
        worker.send({ upskillMetrics: "answer", id: message.id, ...fields }, undefined, () => {});
    };
    aggregator.clusterMetrics().then(
      (body) => reply({ body }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
