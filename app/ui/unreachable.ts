import { data, isRouteErrorResponse } from "react-router";

/** What a change whose request failed (no network, or the server failing) says, in place. */
export const unreachableMessage = "Could not reach Upskill. Your text is kept.";

/** A change's answer when the server could not be reached or failed: the form keeps its text and offers Retry. */
export interface UnreachableAnswer {
  ok: false;
  message: string;
  unreachable: true;
}

interface StrategyResult {
  type: "data" | "error";
  result: unknown;
}

/**
 * Whether a route's result is a request that never got an answer (no network, the connection
 * dropped): `fetch` rejects with a TypeError then. What the server failed or refused arrives
 * as an answer (an Error it threw is sent as one, a refusal as a Response).
 */
function failedOnTheWay(result: StrategyResult): boolean {
  return result.type === "error" && result.result instanceof TypeError;
}

/**
 * A read that could not reach the server leaves the page as it is instead of replacing it with
 * the error page: a reload of the page's data (a live event, the search typed again) keeps what
 * is shown, the header's data (the root's) always, and the connection line says the browser is
 * offline; the next reload once it is back brings the page up to date. Only a new page, whose
 * data was never there, shows that it could not be reached, inside the header.
 */
export async function keepPageWhenUnreachable(
  { request }: { request: Request },
  next: () => Promise<unknown>,
): Promise<unknown> {
  const results = (await next()) as Record<string, StrategyResult> | undefined;
  if ((request.method !== "GET" && request.method !== "HEAD") || !results) return results;
  // The page's own routes read again: the same address (a search changed), with the root's data
  // (a fetcher's read asks for its one route only, and needs an answer).
  const samePage =
    "root" in results && typeof window !== "undefined" && new URL(request.url).pathname === window.location.pathname;
  for (const [routeId, result] of Object.entries(results)) {
    // React Router keeps what a route shows when the read answers nothing for it.
    if (failedOnTheWay(result) && (samePage || routeId === "root")) delete results[routeId];
  }
  return results;
}

/**
 * A change (any request but a read) that fails on the way, or that the server fails (5xx), is
 * answered to its form instead of replacing the page with the error page: the form keeps what
 * was typed and offers Retry, which sends the same change key (the server makes it once). A
 * refusal the server threw (4xx) is answered with its message.
 */
export async function keepChangesWhenUnreachable(
  { request }: { request: Request },
  next: () => Promise<unknown>,
): Promise<unknown> {
  const results = (await next()) as Record<string, StrategyResult> | undefined;
  if (request.method === "GET" || request.method === "HEAD" || !results) return results;
  for (const [routeId, result] of Object.entries(results)) {
    if (result.type !== "error") continue;
    const error = result.result;
    // A redirect the action threw (a finished reset, an import's dry run) is followed as before.
    if (error instanceof Response && error.status >= 300 && error.status < 400) continue;
    if (isRouteErrorResponse(error) && error.status < 500) {
      const message = (error.data as { message?: unknown } | null)?.message;
      results[routeId] = {
        type: "data",
        result: data(
          { ok: false, message: typeof message === "string" ? message : "This change was refused." },
          { status: error.status },
        ),
      };
      continue;
    }
    const answer: UnreachableAnswer = { ok: false, message: unreachableMessage, unreachable: true };
    results[routeId] = { type: "data", result: data(answer, { status: 503 }) };
  }
  return results;
}
