import http from "node:http";

/**
 * Response heads serialized once, for answers whose headers never change (a cached public
 * page). Node validates and joins every header on every response: for a cached page's 14 that
 * is about a fifth of what the whole answer costs, spent producing the same text each time.
 *
 * A prepared head is validated once, with Node's own public validators. Each answer then adds
 * its request id, the Date line and the keep-alive lines exactly as Node writes them, and hands
 * the head to Node in `_header`: the field where a response keeps its serialized head until the
 * first body bytes go out with it, in one write. Node's own code still writes, finishes and
 * keeps the connection; only the head's assembly is skipped. Where Node would write anything
 * else (HEAD, a connection that closes after this answer, a response already started) or
 * where `_header` is not what it was, the caller writes the head the usual way.
 */
export interface PreparedHead {
  /** The status line and headers, each line ending in CRLF, without the blank line. */
  readonly text: string;
}

/** Node's serialized head of a response, which it sends with the first body bytes. */
interface ResponseInternals {
  _header: string | null | undefined;
  _headerSent: boolean;
  shouldKeepAlive: boolean;
  maxRequestsOnConnectionReached: boolean;
}

/** A 200's head from flat name, value pairs; throws as Node would on an invalid name or value. */
export function prepareHead(headers: readonly string[]): PreparedHead {
  let text = "HTTP/1.1 200 OK\r\n";
  for (let i = 0; i < headers.length; i += 2) {
    const [name, value] = [headers[i]!, headers[i + 1]!];
    http.validateHeaderName(name);
    http.validateHeaderValue(name, value);
    // Node adds these itself, from the response's state: a copy here would be sent twice.
    if (/^(date|connection|keep-alive|transfer-encoding)$/i.test(name)) {
      throw new Error(`A prepared head can't carry ${name}: Node writes it.`);
    }
    text += `${name}: ${value}\r\n`;
  }
  return { text };
}

/** Writes prepared heads for one server: its keep-alive lines, and the Date line of this second. */
export class PreparedHeadWriter {
  private readonly connectionLines: string;
  private dateLine = "";
  private dateLineUntil = 0;

  constructor(keepAliveTimeoutMs: number) {
    // As Node's _storeHeader words them for a response on a connection that stays open.
    this.connectionLines =
      "Connection: keep-alive\r\n" +
      (keepAliveTimeoutMs > 0 ? `Keep-Alive: timeout=${Math.floor(keepAliveTimeoutMs / 1000)}\r\n` : "");
  }

  /**
   * Sends a GET's answer with a prepared head and `body`, and returns true; or returns false,
   * having written nothing, where Node would write a head of another shape.
   */
  send(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    head: PreparedHead,
    requestId: string,
    body: Buffer,
  ): boolean {
    const internals = res as unknown as ResponseInternals;
    if (
      req.method !== "GET" ||
      req.httpVersion !== "1.1" ||
      internals._header !== null ||
      internals._headerSent ||
      !internals.shouldKeepAlive ||
      internals.maxRequestsOnConnectionReached
    ) {
      return false;
    }
    res.statusCode = 200;
    internals._header = `${head.text}X-Request-Id: ${requestId}\r\n${this.date()}${this.connectionLines}\r\n`;
    res.end(body);
    return true;
  }

  /** The Date line, made again once a second (as Node keeps its own). */
  private date(): string {
    const now = Date.now();
    if (now >= this.dateLineUntil) {
      this.dateLine = `Date: ${new Date(now).toUTCString()}\r\n`;
      this.dateLineUntil = now - (now % 1000) + 1000;
    }
    return this.dateLine;
  }
}
