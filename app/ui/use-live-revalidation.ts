import { useCallback, useEffect, useRef } from "react";
import { useFetchers, useNavigation, useRevalidator } from "react-router";
import { useEventStream } from "./use-event-stream";

/** At most this often: a burst of events (a bulk send, many sign-ups) is one reload of the data. */
const THROTTLE_MS = 300;

/**
 * Keeps the page's loader data live: any event on this user's stream, or a reconnect after
 * missing some, makes the page's loaders run again (throttled). Returns whether the stream is
 * connected. A reload that falls due while the stream is down is dropped: the server may be
 * unreachable (a failed reload would replace the page with an error), and the reconnect
 * reloads anyway; so is one due while the browser says it is offline (coming back online
 * reloads). One that falls due while an action of the page is on its way waits for the
 * answer: a reload first could remove the form that asked (a revoked document has no Revoke)
 * before it could tell the answer.
 */
export function useLiveRevalidation(): boolean {
  const { revalidate } = useRevalidator();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const last = useRef(0);
  const live = useRef(false);
  const submitting = useRef(false);
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const isSubmitting = navigation.state === "submitting" || fetchers.some((fetcher) => fetcher.state === "submitting");
  useEffect(() => {
    submitting.current = isSubmitting;
  }, [isSubmitting]);
  const schedule = useCallback(() => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + THROTTLE_MS - Date.now());
    const reload = () => {
      timer.current = undefined;
      // Offline, the reload could not be answered: coming back online reloads instead.
      if (!live.current || !navigator.onLine) return;
      // Waits for the action's answer (a failed action reloads nothing of itself).
      if (submitting.current) {
        timer.current = setTimeout(reload, THROTTLE_MS);
        return;
      }
      last.current = Date.now();
      void revalidate();
    };
    timer.current = setTimeout(reload, wait);
  }, [revalidate]);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    // Events may have come while the browser was offline (a stream still open says so).
    window.addEventListener("online", schedule);
    return () => window.removeEventListener("online", schedule);
  }, [schedule]);
  const connected = useEventStream(schedule, (isConnected) => (live.current = isConnected));
  return connected;
}
