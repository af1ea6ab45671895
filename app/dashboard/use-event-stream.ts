import { useEffect, useRef, useState } from "react";
import type { RealtimeEvent } from "~/realtime/events";

/**
 * Keeps one /api/events stream open for this tab. On a drop it reconnects itself with growing
 * delays (1 s, 2 s, 4 s … 30 s, jittered) and, once reconnected, calls onReconnect so the page
 * refreshes what it may have missed. Returns whether the stream is connected now.
 */
export function useEventStream(onEvent: (event: RealtimeEvent) => void, onReconnect: () => void): boolean {
  const [connected, setConnected] = useState(false);
  const handlers = useRef({ onEvent, onReconnect });
  useEffect(() => {
    handlers.current = { onEvent, onReconnect };
  });

  useEffect(() => {
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let everConnected = false;
    let stopped = false;

    const connect = () => {
      source = new EventSource("/api/events");
      source.addEventListener("ready", () => {
        if (everConnected) handlers.current.onReconnect();
        everConnected = true;
        attempt = 0;
        setConnected(true);
      });
      source.onmessage = (message: MessageEvent<string>) => {
        try {
          const event = JSON.parse(message.data) as RealtimeEvent;
          if (event.type === "resync") handlers.current.onReconnect();
          else handlers.current.onEvent(event);
        } catch {
          // an unreadable event is skipped
        }
      };
      source.onerror = () => {
        // Our own backoff instead of the browser's fixed retry.
        source?.close();
        setConnected(false);
        if (stopped) return;
        const delay = Math.min(30_000, 1_000 * 2 ** attempt++) * (0.75 + Math.random() / 2);
        timer = setTimeout(connect, delay);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, []);
  return connected;
}
