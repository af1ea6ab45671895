import type http from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "~/logging/logger.server";
import { isStreamedUpload, requestLimits } from "./request-limits.server";

export const allowedMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const methodNotAllowed = `This server does not accept that method. It accepts ${allowedMethods.join(", ")}.`;
// A host name (underscores allowed: container names have them), an IPv4 address or a bracketed
// IPv6 address, with an optional port. Nothing that would change the URL: no "@", "/", "?" or spaces.
const validHost = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

type Target =
  { ok: true; url: URL } | { ok: false; status: 400 | 405; message: string; headers?: Record<string, string> };

/**
 * The request's URL, or why the request is refused: a method outside allowedMethods (TRACE
 * among them), a Host header that is not a host, a target that is not a path, or a path with a
 * bad percent-encoding. Each used to reach new URL / new Request / the router and end in a 500.
 *
 * The URL is the path on APP_URL's origin (`origin`), not on the Host header: behind a proxy
 * that ends TLS or listens on another port, Host and scheme are not what the browser used, and
 * React Router refuses an action whose Origin differs from the request URL's.
 */
export function parseTarget(req: http.IncomingMessage, origin: string): Target {
  if (!allowedMethods.includes(req.method ?? "")) {
    return { ok: false, status: 405, message: methodNotAllowed, headers: { Allow: allowedMethods.join(", ") } };
  }
  const host = req.headers.host ?? "localhost";
  if (!validHost.test(host)) return { ok: false, status: 400, message: "The Host header is not a valid host name." };
  let path = req.url ?? "/";
  if (!path.startsWith("/")) {
    // The absolute form (GET http://host/path) is what proxies send; only its path is used.
    if (!/^https?:\/\//i.test(path)) return { ok: false, status: 400, message: "The request target is not a path." };
    const absolute = URL.parse(path);
    if (!absolute) return { ok: false, status: 400, message: "The request target is not a valid URL." };
    path = absolute.pathname + absolute.search;
  }
  // Concatenated, not resolved against a base: "//evil.example/x" must stay a path on this host.
  const url = URL.parse(`${origin}${path}`);
  if (!url) return { ok: false, status: 400, message: "The request target is not a valid URL." };
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 400, message: "The address has a bad percent-encoding." };
  }
  return { ok: true, url };
}

/** Answers what reaches the server outside its request handler: "Expect: 100-continue" and CONNECT. */
export function refuseBeforeTheHandler(server: http.Server, origin: string, logger: Logger): void {
  // Node answers "Expect: 100-continue" with "100 Continue" to any request; a body that will
  // be refused (over the cap, or a request refused as malformed) is not invited.
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const target = parseTarget(req, origin);
    const refused =
      !target.ok ||
      (Number(req.headers["content-length"]) > requestLimits.maxBodyBytes &&
        !isStreamedUpload(req.method ?? "", target.url.pathname));
    if (!refused) res.writeContinue();
    server.emit("request", req, res);
  });
  // CONNECT never reaches the request handler; without this Node drops the connection unanswered.
  server.on("connect", (req: http.IncomingMessage, socket: Duplex) => {
    logger.warn({ method: req.method, reason: methodNotAllowed }, "bad request");
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${allowedMethods.join(", ")}\r\n` +
        `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(methodNotAllowed)}\r\n` +
        `Connection: close\r\n\r\n${methodNotAllowed}`,
    );
  });
}
