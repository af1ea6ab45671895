import type http from "node:http";
import type { Logger } from "~/logging/logger.server";

/** A refusal from the HTTP layer: JSON with a message for the API, plain text elsewhere. */
export function sendProblem(
  res: http.ServerResponse,
  status: number,
  message: string,
  pathname: string,
  headers: Record<string, string> = {},
): void {
  writeProblem(res, status, message, pathname, headers);
  res.end();
}

/** The refusal's head and body, written but not ended. */
export function writeProblem(
  res: http.ServerResponse,
  status: number,
  message: string,
  pathname: string,
  headers: Record<string, string>,
): void {
  const json = pathname.startsWith("/api/");
  const body = json ? JSON.stringify({ message }) : message;
  res.writeHead(status, {
    ...headers,
    "Content-Type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "private, no-store",
  });
  res.write(body);
}

/** A request that threw: logged, and a 500 if nothing was sent yet (else the connection is cut). */
export function answerFailure(logger: Logger, res: http.ServerResponse, requestId: string, error: unknown): void {
  logger.error({ reqId: requestId, err: error }, "request failed");
  if (!res.headersSent) {
    res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("Something went wrong. Please try again.");
  } else {
    res.destroy();
  }
}
