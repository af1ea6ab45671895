import { data } from "react-router";
import { refuseJson } from "./responses";

/*
 * How heavy reports run (the outcome and fees reports, every CSV export): they read in chunks
 * and give the event loop a turn between chunks, so that no other request waits behind them
 * for long (node:sqlite is synchronous: one big statement would hold the loop for all of its
 * run); and at most `heavyReportsAtOnce` of them run at once in this process, so that a few
 * staff pressing Export cannot take every core and database connection from everyone else.
 * The next one waits a little for a slot, then is refused with 429 and Retry-After.
 */

export const heavyReportsAtOnce = 2;
/** How long a report waits for a slot before it is refused: long enough for a page's report to end. */
export const heavyReportWaitMs = 2_000;
export const heavyReportRetryAfterSeconds = 10;

export const heavyReportMessages = {
  busy: `Other reports are being prepared right now. Please try again in ${heavyReportRetryAfterSeconds} seconds.`,
} as const;

/** Gives back a slot; calling it again does nothing. */
export type ReleaseSlot = () => void;

let running = 0;
const waiting: (() => void)[] = [];

function slot(): ReleaseSlot {
  running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    waiting.shift()?.();
  };
}

/** A slot for one heavy report, or null when none came free within `waitMs`. */
export function takeReportSlot(waitMs = heavyReportWaitMs): Promise<ReleaseSlot | null> {
  if (running < heavyReportsAtOnce && waiting.length === 0) return Promise.resolve(slot());
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      resolve(slot());
    };
    const timer = setTimeout(() => {
      waiting.splice(waiting.indexOf(wake), 1);
      resolve(null);
    }, waitMs);
    waiting.push(wake);
  });
}

const retryAfter = { "Retry-After": String(heavyReportRetryAfterSeconds) };

/** The refusal of a download (a resource route): JSON with the message. */
export function reportsBusyResponse(): Response {
  const response = refuseJson(429, heavyReportMessages.busy);
  response.headers.set("Retry-After", retryAfter["Retry-After"]);
  return response;
}

/** A page's report run in a slot; a page refused one shows the message with 429 and Retry-After. */
export async function inReportSlot<T>(run: () => Promise<T>): Promise<T> {
  const release = await takeReportSlot();
  if (!release) throw data({ message: heavyReportMessages.busy }, { status: 429, headers: retryAfter });
  try {
    return await run();
  } finally {
    release();
  }
}

/** Lets the event loop serve other requests before the next chunk of a report is read. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
