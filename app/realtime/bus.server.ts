import cluster from "node:cluster";
import pg from "pg";
import type { Logger } from "~/logging/logger.server";
import { relayToOtherWorkers } from "./cluster-relay.server";
import type { RealtimeEvent } from "./events";

export type Listener = (event: RealtimeEvent) => void;

/**
 * Publish/subscribe by topic. Publishing reaches every subscriber of the topic in every app
 * instance that shares the bus: one process for the in-process bus, every worker process of one
 * `npm start` for the cluster bus, every instance on the same PostgreSQL database for the
 * LISTEN/NOTIFY bus.
 */
export interface EventBus {
  publish(topic: string, event: RealtimeEvent): Promise<void>;
  /** Many events at once (a bulk send tells each learner): one round trip per batch. */
  publishMany(events: readonly (readonly [topic: string, event: RealtimeEvent])[]): Promise<void>;
  subscribe(topic: string, listener: Listener): () => void;
  close(): Promise<void>;
}

/** Local fan-out shared by both buses. */
class Subscribers {
  private readonly byTopic = new Map<string, Set<Listener>>();

  add(topic: string, listener: Listener): () => void {
    let set = this.byTopic.get(topic);
    if (!set) this.byTopic.set(topic, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byTopic.get(topic) === set) this.byTopic.delete(topic);
    };
  }

  deliver(topic: string, event: RealtimeEvent, logger?: Logger): void {
    for (const listener of this.byTopic.get(topic) ?? []) {
      try {
        listener(event);
      } catch (error) {
        logger?.error({ err: error, topic }, "event listener failed");
      }
    }
  }

  /** Every topic at once (after a gap in delivery). */
  deliverAll(event: RealtimeEvent, logger?: Logger): void {
    for (const topic of [...this.byTopic.keys()]) this.deliver(topic, event, logger);
  }

  get size(): number {
    let n = 0;
    for (const set of this.byTopic.values()) n += set.size;
    return n;
  }
}

/** One process (SQLite deployments, tests). */
export class InProcessBus implements EventBus {
  private readonly subscribers = new Subscribers();
  private readonly logger: Logger | undefined;

  // No parameter properties in this file: bench/events.ts runs it under Node's type stripping.
  constructor(logger?: Logger) {
    this.logger = logger;
  }

  async publish(topic: string, event: RealtimeEvent): Promise<void> {
    this.subscribers.deliver(topic, event, this.logger);
  }

  async publishMany(events: readonly (readonly [string, RealtimeEvent])[]): Promise<void> {
    for (const [topic, event] of events) this.subscribers.deliver(topic, event, this.logger);
  }

  subscribe(topic: string, listener: Listener): () => void {
    return this.subscribers.add(topic, listener);
  }

  async close(): Promise<void> {}
}

/** What a worker and the primary send each other: events, in the order they were published. */
interface ClusterEvents {
  upskillEvents: (readonly [topic: string, event: RealtimeEvent])[];
}

const isClusterEvents = (message: unknown): message is ClusterEvents =>
  typeof message === "object" && message !== null && Array.isArray((message as ClusterEvents).upskillEvents);

/**
 * The server processes of one machine (`WEB_CONCURRENCY`, node:cluster) without PostgreSQL: a
 * worker delivers what it publishes to its own subscribers at once and sends it to the primary
 * over the cluster's IPC channel; the primary passes it on to every other worker
 * (relayClusterEvents). The primary outlives its workers, and a worker whose primary is gone
 * exits, so nothing is lost between processes that are running.
 */
export class ClusterBus implements EventBus {
  private readonly subscribers = new Subscribers();
  private readonly logger: Logger | undefined;
  private readonly receive = (message: unknown) => {
    if (!isClusterEvents(message)) return;
    for (const [topic, event] of message.upskillEvents) this.subscribers.deliver(topic, event, this.logger);
  };

  constructor(logger?: Logger) {
    this.logger = logger;
    process.on("message", this.receive);
  }

  async publish(topic: string, event: RealtimeEvent): Promise<void> {
    await this.publishMany([[topic, event]]);
  }

  async publishMany(events: readonly (readonly [string, RealtimeEvent])[]): Promise<void> {
    for (const [topic, event] of events) this.subscribers.deliver(topic, event, this.logger);
    if (events.length === 0 || !process.connected || !process.send) return;
    const message: ClusterEvents = { upskillEvents: [...events] };
    // The callback keeps a channel closed meanwhile (the primary stopping) from throwing.
    process.send(message, undefined, undefined, (error) => {
      if (error) this.logger?.warn({ err: error }, "events could not be sent to the other server processes");
    });
  }

  subscribe(topic: string, listener: Listener): () => void {
    return this.subscribers.add(topic, listener);
  }

  async close(): Promise<void> {
    process.off("message", this.receive);
  }
}

/** The primary's half of the cluster bus: what one worker publishes goes to every other one. */
export function relayClusterEvents(): () => void {
  return relayToOtherWorkers(isClusterEvents);
}

export interface PostgresBusOptions {
  connectionString: string;
  /** The NOTIFY channel; instances that share it see each other's events. */
  channel?: string;
  logger?: Logger;
}

// NOTIFY payloads are limited to 8000 bytes; events are far smaller, but never fail on it.
const maxPayload = 7_900;
const notifyBatch = 500;

function notificationPayload(topic: string, event: RealtimeEvent): string {
  const payload = JSON.stringify({ topic, event });
  return Buffer.byteLength(payload) > maxPayload ? JSON.stringify({ topic, event: { type: "resync" } }) : payload;
}

/**
 * PostgreSQL LISTEN/NOTIFY: one listening connection per instance; publishing is a NOTIFY that
 * every instance (this one included) receives, so delivery is the same wherever the sender is.
 * When the listening connection drops it reconnects with backoff and tells every local
 * subscriber to resync, since events sent meanwhile are lost.
 */
export class PostgresBus implements EventBus {
  private readonly subscribers = new Subscribers();
  private readonly channel: string;
  private listener: pg.Client | undefined;
  private publisher: pg.Pool;
  private closed = false;
  private retry = 0;
  private connecting: Promise<void> | undefined;
  private readonly options: PostgresBusOptions;

  constructor(options: PostgresBusOptions) {
    this.options = options;
    this.channel = options.channel ?? "upskill_events";
    if (!/^[a-z_][a-z0-9_]*$/.test(this.channel)) throw new Error(`invalid channel name: ${this.channel}`);
    this.publisher = new pg.Pool({ connectionString: options.connectionString, max: 2 });
    this.publisher.on("error", (error) =>
      options.logger?.warn({ err: error.message }, "event publisher connection lost"),
    );
  }

  /** Resolves once this instance is listening (so nothing published afterwards is missed). */
  ready(): Promise<void> {
    this.connecting ??= this.connect();
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on("notification", (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      try {
        const { topic, event } = JSON.parse(message.payload) as { topic: string; event: RealtimeEvent };
        this.subscribers.deliver(topic, event, this.options.logger);
      } catch (error) {
        this.options.logger?.warn({ err: error }, "unreadable event notification");
      }
    });
    const lost = (reason: string) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      client.removeAllListeners("end");
      void client.end().catch(() => {});
      if (this.closed) return;
      const delay = Math.min(30_000, 250 * 2 ** this.retry++);
      this.options.logger?.warn({ reason, retryInMs: delay }, "event listener connection lost");
      setTimeout(() => {
        this.connecting = this.connect().catch(() => lost("reconnect failed"));
      }, delay).unref();
    };
    client.on("error", (error) => lost(error.message));
    client.on("end", () => lost("ended"));
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      lost((error as Error).message);
      throw error;
    }
    if (this.retry > 0) this.subscribers.deliverAll({ type: "resync" }, this.options.logger);
    this.retry = 0;
  }

  async publish(topic: string, event: RealtimeEvent): Promise<void> {
    await this.publisher.query("select pg_notify($1, $2)", [this.channel, notificationPayload(topic, event)]);
  }

  async publishMany(events: readonly (readonly [string, RealtimeEvent])[]): Promise<void> {
    // One statement per batch: a bulk send to thousands is a few round trips, not thousands.
    for (let i = 0; i < events.length; i += notifyBatch) {
      const payloads = events.slice(i, i + notifyBatch).map(([topic, event]) => notificationPayload(topic, event));
      await this.publisher.query("select pg_notify($1, payload) from unnest($2::text[]) as payload", [
        this.channel,
        payloads,
      ]);
    }
  }

  subscribe(topic: string, listener: Listener): () => void {
    void this.ready().catch(() => {});
    return this.subscribers.add(topic, listener);
  }

  get listenerCount(): number {
    return this.subscribers.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.listener;
    this.listener = undefined;
    await Promise.allSettled([client?.end(), this.publisher.end()]);
  }
}

/**
 * LISTEN/NOTIFY when the app runs on PostgreSQL; else the cluster bus in a worker of several
 * server processes, the in-process bus in a single one.
 */
export function createEventBus(options: {
  databaseUrl: string | undefined;
  channel?: string;
  logger?: Logger;
}): EventBus {
  if (!options.databaseUrl) return cluster.isWorker ? new ClusterBus(options.logger) : new InProcessBus(options.logger);
  const bus = new PostgresBus({
    connectionString: options.databaseUrl,
    channel: options.channel,
    logger: options.logger,
  });
  void bus.ready().catch((error: unknown) => options.logger?.error({ err: error }, "event listener could not connect"));
  return bus;
}
