import type { EventBus } from "./bus.server";
import type { RealtimeEvent } from "./events";

export interface EventStreamOptions {
  bus: EventBus;
  /** The topics this stream carries (the user's own, plus staff's for staff). */
  topics: string[];
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** A comment line this often keeps proxies and the browser from timing the stream out. */
  heartbeatMs?: number;
  /**
   * Whatever else ends the stream (the server stopping, the session ending): each is handed
   * the stream's end and returns its own removal, called when the stream ends for any reason.
   */
  endWhen?: ((end: () => void) => () => void)[];
}

const encoder = new TextEncoder();

/**
 * A server-sent event stream of the given topics. It opens with `retry:` (the browser's own
 * reconnect delay) and a `ready` event, sends each event as `data: {json}`, a heartbeat comment
 * every heartbeatMs, and ends when the client leaves or the server shuts down.
 */
export function eventStreamResponse(options: EventStreamOptions): Response {
  const { bus, topics, signal, heartbeatMs = 15_000 } = options;
  const cleanups: (() => void)[] = [];
  let ended = false;

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (ended) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          end();
        }
      };
      const end = () => {
        if (ended) return;
        ended = true;
        for (const cleanup of cleanups.splice(0)) cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      const onEvent = (event: RealtimeEvent) => send(`data: ${JSON.stringify(event)}\n\n`);
      for (const topic of topics) cleanups.push(bus.subscribe(topic, onEvent));
      const heartbeat = setInterval(() => send(`: heartbeat ${Date.now()}\n\n`), heartbeatMs);
      cleanups.push(() => clearInterval(heartbeat));
      for (const register of options.endWhen ?? []) cleanups.push(register(end));
      const onAbort = () => end();
      signal.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", onAbort));
      send(`retry: 2000\nevent: ready\ndata: {}\n\n`);
      if (signal.aborted) end();
    },
    cancel() {
      ended = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  });

  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // Proxies (nginx) must pass events through at once rather than buffer them.
      "X-Accel-Buffering": "no",
      // A stream holds its connection for its whole life; when it ends (server stopping), the
      // connection goes too rather than idling and holding up the shutdown.
      Connection: "close",
    },
  });
}
