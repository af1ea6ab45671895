import { useEffect, useRef, useState } from "react";

/**
 * Keeps one /api/events stream open for this tab and calls onChange for every event. On a drop
 * it reconnects itself with growing delays (1 s, 2 s, 4 s … 30 s, jittered) and, once
 * reconnected, calls onChange too, since events may have been missed. Returns whether the
 * stream is connected now.
 */
export function useEventStream(onChange: () => void, onConnectedChange?: (connected: boolean) => void): boolean {
  const [connected, setState] = useState(false);
  const handler = useRef(onChange);
  const connectedHandler = useRef(onConnectedChange);
  useEffect(() => {
    handler.current = onChange;
    connectedHandler.current = onConnectedChange;
  });
  const setConnected = (value: boolean) => {
    // Told at once, not at the next render: a reload due in between must see it.
    connectedHandler.current?.(value);
    setState(value);
  };

  useEffect(() => {
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let everConnected = false;
    let stopped = false;

    const connect = () => {
      source = new EventSource("/api/events");
      source.addEventListener("ready", () => {
        if (everConnected) handler.current();
        everConnected = true;
        attempt = 0;
        setConnected(true);
      });
      // Events say what changed; the page reads it again through its loaders, whatever it was.
      source.onmessage = () => handler.current();
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
