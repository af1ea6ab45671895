import { useCallback, useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { useEventStream } from "./use-event-stream";

/** At most this often: a burst of events (a bulk send, many sign-ups) is one reload of the data. */
const THROTTLE_MS = 300;

/**
 * Keeps the page's loader data live: any event on this user's stream, or a reconnect after
 * missing some, makes the page's loaders run again (throttled). Returns whether the stream is
 * connected. A reload that falls due while the stream is down is dropped: the server may be
 * unreachable (a failed reload would replace the page with an error), and the reconnect
 * reloads anyway.
 */
export function useLiveRevalidation(): boolean {
  const { revalidate } = useRevalidator();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const last = useRef(0);
  const live = useRef(false);
  const schedule = useCallback(() => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + THROTTLE_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      if (!live.current) return;
      last.current = Date.now();
      void revalidate();
    }, wait);
  }, [revalidate]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const connected = useEventStream(schedule, (isConnected) => (live.current = isConnected));
  return connected;
}
