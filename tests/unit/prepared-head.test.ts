import http from "node:http";
import net from "node:net";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PreparedHeadWriter, prepareHead } from "~/http/prepared-head.server";

const headers = [
  "Content-Security-Policy",
  "default-src 'self'; frame-ancestors 'none'",
  "Content-Type",
  "text/html; charset=utf-8",
  "ETag",
  '"p-abc"',
  "Content-Length",
  "11",
];
const body = Buffer.from("hello world");
const keepAliveMs = 5_000;

/** Answers /prepared with a prepared head where it can (saying which way in `ways`), /plain with writeHead. */
let server: http.Server;
let port: number;
const ways: string[] = [];

beforeAll(async () => {
  const head = prepareHead(headers);
  const writer = new PreparedHeadWriter(keepAliveMs);
  server = http.createServer({ keepAliveTimeout: keepAliveMs, optimizeEmptyRequests: true }, (req, res) => {
    const requestId = `id-${req.headers["x-n"] ?? "0"}`;
    if (req.url === "/prepared" && writer.send(req, res, head, requestId, body)) {
      ways.push("prepared");
      return;
    }
    ways.push("writeHead");
    res.writeHead(200, [...headers, "X-Request-Id", requestId]);
    res.end(req.method === "HEAD" ? undefined : body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Writes `requests` at once on one connection and reads until the server closes it. */
async function exchange(requests: string): Promise<string> {
  const socket = net.connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk) => chunks.push(chunk));
  socket.write(requests);
  await once(socket, "close");
  return Buffer.concat(chunks).toString("latin1");
}

const get = (path: string, n: number, extra = "") => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-N: ${n}\r\n${extra}\r\n`;
const closing = "Connection: close\r\n";

/** The responses in what one connection received, each split into its head and body. */
function responses(text: string, bodies = true): { head: string; body: string }[] {
  const found: { head: string; body: string }[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf("\r\n\r\n", at);
    const head = text.slice(at, end + 4);
    const length = bodies ? Number(/Content-Length: (\d+)/.exec(head)![1]) : 0;
    found.push({ head, body: text.slice(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return found;
}

const withoutDate = (head: string) => head.replace(/^Date: .*\r\n/m, "");

describe("prepared response heads", () => {
  it("write what writeHead writes, byte for byte, on a connection that stays open", async () => {
    ways.length = 0;
    const text = await exchange(get("/prepared", 1) + get("/plain", 1) + get("/plain", 9, closing));
    expect(ways).toEqual(["prepared", "writeHead", "writeHead"]);
    const [prepared, plain] = responses(text);
    expect(withoutDate(prepared!.head)).toBe(withoutDate(plain!.head));
    expect(prepared!.head).toMatch(/^Date: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\r\n/m);
    expect(prepared!.head).toContain("Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n");
    expect(prepared!.body).toBe("hello world");
  });

  it("keep pipelined answers in order, each with its own request id", async () => {
    ways.length = 0;
    const text = await exchange(get("/prepared", 1) + get("/prepared", 2) + get("/prepared", 3, closing));
    expect(ways).toEqual(["prepared", "prepared", "writeHead"]);
    const found = responses(text);
    expect(found.map((r) => /X-Request-Id: (.*)\r\n/.exec(r.head)![1])).toEqual(["id-1", "id-2", "id-3"]);
    expect(found.map((r) => r.body)).toEqual(["hello world", "hello world", "hello world"]);
  });

  it("leave to Node what it writes otherwise: a closing connection, HTTP/1.0, HEAD", async () => {
    ways.length = 0;
    const closed = await exchange(get("/prepared", 1, closing));
    expect(closed).toContain("Connection: close\r\n");
    const old = await exchange("GET /prepared HTTP/1.0\r\nHost: x\r\n\r\n");
    expect(old).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(old.endsWith("hello world")).toBe(true);
    const head = await exchange(`HEAD /prepared HTTP/1.1\r\nHost: x\r\n${closing}\r\n`);
    expect(responses(head, false)[0]!.body).toBe("");
    expect(ways).toEqual(["writeHead", "writeHead", "writeHead"]);
  });

  it("refuse what Node would refuse, and the headers Node writes itself", () => {
    expect(() => prepareHead(["X-Bad", "one\r\nSet-Cookie: a=b"])).toThrow();
    expect(() => prepareHead(["Bad Name", "x"])).toThrow();
    expect(() => prepareHead(["Date", "today"])).toThrow(/Node writes it/);
    expect(() => prepareHead(["connection", "close"])).toThrow(/Node writes it/);
  });
});
