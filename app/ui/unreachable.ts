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
