import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { nginxBinary, nginxMissing, startNginx } from "../support/nginx";
import { freePort, logRecords, startServerProcess, type ServerProcess } from "../support/server-process";
import { newAccount } from "./fixtures";

// Each test starts its own server process; several of them wait on real timeouts.
test.describe.configure({ mode: "parallel" });

interface RawReply {
  /** Everything the server sent. */
  text: string;
  status: number;
  body: string;
  /** Milliseconds from the first byte sent until the server closed the connection (or the wait ended). */
  ms: number;
  closed: boolean;
}

/**
 * Sends raw bytes (then nothing more unless `more` writes) and collects the answer until the
 * server closes the connection or waitMs passes.
 */
async function raw(
  port: number,
  head: string,
  options: { waitMs?: number; more?: (socket: net.Socket) => Promise<void> } = {},
): Promise<RawReply> {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  const started = Date.now();
  const chunks: Buffer[] = [];
  socket.on("data", (chunk) => chunks.push(chunk));
  socket.on("error", () => {}); // a reset after the answer is part of what is tested
  const closed = new Promise<boolean>((resolve) => {
    socket.once("close", () => resolve(true));
    setTimeout(() => resolve(false), options.waitMs ?? 5_000);
  });
  socket.write(head);
  await options.more?.(socket).catch(() => {});
  const didClose = await closed;
  const ms = Date.now() - started;
  socket.destroy();
  const text = Buffer.concat(chunks).toString("latin1");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  return { text, status, body: text.slice(text.indexOf("\r\n\r\n") + 4), ms, closed: didClose };
}

const portOf = (server: ServerProcess) => Number(new URL(server.url).port);

/** The server process's peak resident memory so far, in MB (Linux). */
function peakMemoryMb(server: ServerProcess): number {
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Signs up through the API and returns the session cookie. */
async function signUp(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(newAccount()),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

test.describe("request bodies", () => {
  test("a 200 MB body gets 413 without the server's memory growing; /healthz keeps answering", async () => {
    test.skip(!fs.existsSync("/proc/self/status"), "needs /proc to read the server's memory");
    const server = await startServerProcess();
    try {
      const port = portOf(server);
      await new Promise((r) => setTimeout(r, 1_000)); // the page cache warms up after the start
      const before = peakMemoryMb(server);
      const megabyte = Buffer.alloc(1024 * 1024, "a");
      const stream200Mb = async (socket: net.Socket, chunked: boolean) => {
        const closed = new Promise((resolve) => socket.once("close", resolve));
        const frame = (data: Buffer) =>
          chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]) : data;
        socket.write(frame(Buffer.from('{"username":"')));
        for (let i = 0; i < 200 && !socket.destroyed; i++) {
          if (!socket.write(frame(megabyte))) await Promise.race([once(socket, "drain"), closed]);
        }
      };
      const headers = (length: string) =>
        `POST /api/auth/sign-up/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\n` +
        `Content-Type: application/json\r\n${length}\r\n`;

      // Declared up front: refused before a byte of the body is read.
      const declared = await raw(port, headers(`Content-Length: ${200 * 1024 * 1024 + 20}\r\n`), {
        more: (socket) => stream200Mb(socket, false),
      });
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.body.split("\r\n\r\n")[0]!)).toEqual({
        message: "The request is too large. The limit is 1 MB.",
      });

      // Chunked, without a length: refused once the body passes 1 MiB.
      const chunked = await raw(port, headers("Transfer-Encoding: chunked\r\n"), {
        more: (socket) => stream200Mb(socket, true),
      });
      expect(chunked.status).toBe(413);
      expect(chunked.body).toContain("The request is too large.");

      // A client that asks first (curl does, for large bodies) is told at once, not invited to send.
      const asked = await raw(port, headers(`Content-Length: ${200 * 1024 * 1024}\r\nExpect: 100-continue\r\n`));
      expect(asked.text).toMatch(/^HTTP\/1\.1 413 /);
      const body = JSON.stringify({ email: "nobody@example.com", password: "not-the-password" });
      const small = await raw(
        port,
        headers(`Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n`).replace(
          "sign-up",
          "sign-in",
        ),
        { more: async (socket) => void (await once(socket, "data"), socket.write(body)) },
      );
      expect(small.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 401 /);

      const growth = peakMemoryMb(server) - before;
      expect(growth, `peak memory grew by ${growth.toFixed(1)} MB`).toBeLessThan(40);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const records = logRecords(server.lines);
      expect(records.filter((r) => r.path === "/api/auth/sign-up/email").map((r) => r.status)).toEqual([413, 413, 413]);
      expect(records.some((r) => r.level === 50)).toBe(false);
    } finally {
      await server.stop();
    }
  });

  test("a chunked body just over the cap gets 413; one under it reaches the app", async () => {
    const server = await startServerProcess();
    try {
      const over = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        // A stream has no length, so it goes out chunked.
        body: new Blob([`{"username":"${"a".repeat(1024 * 1024)}"}`]).stream(),
        duplex: "half",
      } as RequestInit);
      expect(over.status).toBe(413);
      expect(await over.json()).toEqual({ message: "The request is too large. The limit is 1 MB." });

      const under = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: new Blob([JSON.stringify({ email: "nobody@example.com", password: "a".repeat(900 * 1024) })]).stream(),
        duplex: "half",
      } as RequestInit);
      // better-auth's own answer to a password that long: the body reached the app whole.
      expect(under.status).toBe(400);
      expect(((await under.json()) as { code?: string }).code).toBe("PASSWORD_TOO_LONG");
    } finally {
      await server.stop();
    }
  });
  test("a POST without a body (no length, not chunked) is answered at once, not after the body timeout", async () => {
    const server = await startServerProcess();
    try {
      const port = portOf(server);
      const reply = await raw(
        port,
        `POST /contact HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\nConnection: close\r\n\r\n`,
      );
      expect(reply.closed).toBe(true);
      expect(reply.ms).toBeLessThan(3_000);
      expect(reply.status).toBe(400);
    } finally {
      await server.stop();
    }
  });

  test("a client still sending a body over the cap reads the 413 and can go on using the connection", async () => {
    const server = await startServerProcess();
    try {
      const socket = net.connect(portOf(server), "127.0.0.1");
      await once(socket, "connect");
      const chunks: Buffer[] = [];
      socket.on("data", (chunk) => chunks.push(chunk));
      const errors: string[] = [];
      socket.on("error", (error) => errors.push(error.message));
      const piece = Buffer.alloc(100 * 1024, "x");
      socket.write(
        `POST /api/auth/sign-up/email HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${server.url}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${15 * piece.length}\r\n\r\n`,
      );
      // Sent slowly, as a client on a real network does: the answer comes while it is still sending.
      for (let i = 0; i < 15 && !socket.destroyed; i++) {
        socket.write(piece);
        await new Promise((r) => setTimeout(r, 20));
      }
      socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      await new Promise((resolve) => {
        socket.once("close", resolve);
        setTimeout(resolve, 5_000);
      });
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      expect(errors).toEqual([]);
      expect(text).toMatch(/^HTTP\/1\.1 413 /);
      expect(text).toContain("The request is too large.");
      // The next request on the same connection was read and answered.
      expect(text).toMatch(/\}HTTP\/1\.1 200 /);
    } finally {
      await server.stop();
    }
  });
});

test.describe("timeouts", () => {
  test("half a body then silence gets 408 after 30 s; silent headers are closed after 10 s", async () => {
    const server = await startServerProcess();
    try {
      const port = portOf(server);
      const body = JSON.stringify({ email: "nobody@example.com", password: "not-the-password" });
      const [stalledBody, stalledHeaders] = await Promise.all([
        raw(
          port,
          `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
          { waitMs: 40_000 },
        ),
        raw(port, `GET /about HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `, { waitMs: 20_000 }),
      ]);
      expect(stalledBody.status).toBe(408);
      expect(JSON.parse(stalledBody.body)).toEqual({
        message: "The request took too long to arrive (more than 30 seconds).",
      });
      expect(stalledBody.closed).toBe(true);
      expect(stalledBody.ms).toBeGreaterThanOrEqual(29_500);
      expect(stalledBody.ms).toBeLessThan(33_000);

      expect(stalledHeaders.status).toBe(408);
      expect(stalledHeaders.closed).toBe(true);
      expect(stalledHeaders.ms).toBeGreaterThanOrEqual(9_500);
      expect(stalledHeaders.ms).toBeLessThan(12_500);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test("an idle keep-alive connection is closed after 5 s", async () => {
    const server = await startServerProcess();
    try {
      const port = portOf(server);
      const reply = await raw(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, { waitMs: 10_000 });
      expect(reply.status).toBe(200);
      expect(reply.closed).toBe(true);
      expect(reply.ms).toBeGreaterThanOrEqual(4_500);
      expect(reply.ms).toBeLessThan(7_500);
    } finally {
      await server.stop();
    }
  });

  test("an upload may be slow for longer than 30 s, but one that stalls for 60 s is ended", async () => {
    test.setTimeout(120_000);
    const server = await startServerProcess();
    try {
      const port = portOf(server);
      // Two learners: a learner's new upload replaces their unfinished one.
      const cookies = [await signUp(server.url), await signUp(server.url)];
      const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(4000, "x")]);
      const createUpload = async (cookie: string) => {
        const created = await fetch(`${server.url}/api/learner/resume/upload`, {
          method: "POST",
          headers: {
            cookie,
            origin: server.url,
            "tus-resumable": "1.0.0",
            "upload-length": String(pdf.length),
            "upload-metadata": `filename ${Buffer.from("cv.pdf").toString("base64")}`,
          },
        });
        expect(created.status, await created.clone().text()).toBe(201);
        return new URL(created.headers.get("location")!, server.url).pathname;
      };
      const patchHead = (location: string, cookie: string) =>
        `PATCH ${location} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nOrigin: ${server.url}\r\n` +
        `Tus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\n` +
        `Content-Length: ${pdf.length}\r\nConnection: close\r\n\r\n`;

      const [slow, stalled] = await Promise.all([
        // 4 KB over 40 s: slower than the 30 s body timeout allows, but never idle for long.
        createUpload(cookies[0]!).then((location) =>
          raw(port, patchHead(location, cookies[0]!), {
            waitMs: 60_000,
            more: async (socket) => {
              for (let sent = 0; sent < pdf.length; sent += 500) {
                socket.write(pdf.subarray(sent, sent + 500));
                await new Promise((r) => setTimeout(r, 5_000));
              }
            },
          }),
        ),
        createUpload(cookies[1]!).then((location) =>
          raw(port, patchHead(location, cookies[1]!) + pdf.subarray(0, 1000).toString("latin1"), { waitMs: 75_000 }),
        ),
      ]);
      expect(slow.status, slow.text).toBe(204);
      expect(slow.ms).toBeGreaterThan(35_000);

      expect(stalled.status).toBe(408);
      expect(JSON.parse(stalled.body)).toEqual({
        message: "The upload stopped: nothing arrived for 60 seconds. Please try again.",
      });
      expect(stalled.ms).toBeGreaterThanOrEqual(59_500);
      expect(stalled.ms).toBeLessThan(64_000);
      expect(logRecords(server.lines).some((r) => r.level === 50)).toBe(false);
    } finally {
      await server.stop();
    }
  });
});

test.describe("malformed requests", () => {
  test("get a 4xx with a clear message and a one-line warning, never a 500 or a stack", async () => {
    const server = await startServerProcess();
    try {
      const port = portOf(server);
      const send = (lines: string) => raw(port, `${lines}\r\nConnection: close\r\n\r\n`);
      const host = `Host: 127.0.0.1:${port}`;

      const trace = await send(`TRACE / HTTP/1.1\r\n${host}`);
      expect(trace.status).toBe(405);
      expect(trace.text).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/);
      expect(trace.body).toBe(
        "This server does not accept that method. It accepts GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.",
      );
      const connect = await send(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443`);
      expect(connect.status).toBe(405);
      expect(connect.text).toContain("\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n");
      expect((await send(`PROPFIND /about HTTP/1.1\r\n${host}`)).status).toBe(405);

      const badPath = await send(`GET /%E0%A4%A HTTP/1.1\r\n${host}`);
      expect(badPath.status).toBe(400);
      expect(badPath.body).toBe("The address has a bad percent-encoding.");
      const badApiPath = await send(`GET /api/learner/%E0%A4%A HTTP/1.1\r\n${host}`);
      expect(badApiPath.status).toBe(400);
      expect(JSON.parse(badApiPath.body)).toEqual({ message: "The address has a bad percent-encoding." });

      for (const badHost of ["a b", "[zz", "example.com:80:80", "@evil", "evil.example/x", "a:99999999"]) {
        const reply = await send(`GET /about?x=1 HTTP/1.1\r\nHost: ${badHost}`);
        expect(reply.status, badHost).toBe(400);
        expect(reply.body).toBe("The Host header is not a valid host name.");
      }
      expect((await send(`GET /nope HTTP/1.1\r\nHost: upskill_app:3000`)).status).toBe(404);
      expect((await send(`GET * HTTP/1.1\r\n${host}`)).status).toBe(400);
      // A path that looks like another host stays a path on this one.
      expect((await send(`GET //evil.example/x HTTP/1.1\r\n${host}`)).status).toBe(404);

      // Bad encodings in a query string or a cookie, and odd header bytes, are not errors either.
      for (const [head, body = ""] of [
        [`GET /?auth=%E0%A4%A HTTP/1.1\r\n${host}`],
        [`GET /nope?x=%E0%A4%A&%ZZ HTTP/1.1\r\n${host}`],
        [`GET /dashboard HTTP/1.1\r\n${host}\r\nCookie: better-auth.session_token=%E0%A4%A.%ZZ`],
        [`GET /api/learner/state HTTP/1.1\r\n${host}\r\nCookie: better-auth.session_token=%E0%A4%A`],
        [`GET /api/events HTTP/1.1\r\n${host}\r\nCookie: better-auth.session_token=%`],
        [`GET /nope HTTP/1.1\r\n${host}\r\nX-Name: caf\xe9\r\nAccept-Language: \xff\xfe`],
        [`POST /about HTTP/1.1\r\n${host}\r\nContent-Length: 2`, "{}"],
        [`OPTIONS /about HTTP/1.1\r\n${host}`],
        [
          `POST /api/auth/sign-in/email HTTP/1.1\r\n${host}\r\nOrigin: ${server.url}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 5`,
          `{"a":`,
        ],
      ]) {
        const reply = await raw(port, `${head}\r\nConnection: close\r\n\r\n${body}`);
        expect(reply.status, head).toBeGreaterThanOrEqual(200);
        expect(reply.status, head).toBeLessThan(500);
      }
      // A header section over Node's 16 KB limit keeps Node's own answer.
      expect((await send(`GET /about HTTP/1.1\r\n${host}\r\nX-Big: ${"a".repeat(20_000)}`)).status).toBe(431);

      await new Promise((r) => setTimeout(r, 200));
      const records = logRecords(server.lines);
      expect(records.filter((r) => (r.level as number) >= 50)).toEqual([]);
      const warnings = records.filter((r) => r.level === 40);
      expect(warnings.map((r) => r.msg)).toContain("bad request");
      expect(warnings.map((r) => r.msg)).toContain("request refused by the router");
      expect(server.lines.join("\n")).not.toMatch(/\bat .*\.js:\d+|stack/i);
    } finally {
      await server.stop();
    }
  });
});

test.describe("logs", () => {
  test("a request whose error carries a huge value logs lines of a few KB at most", async () => {
    const server = await startServerProcess();
    try {
      const redirectTo = `https://evil.example/${"a".repeat(1000 * 1000)}`;
      const response = await fetch(`${server.url}/api/auth/request-password-reset`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email: "someone@example.com", redirectTo }),
      });
      expect(response.status).toBe(403);
      const longPath = `/${"p".repeat(15_000)}`;
      expect((await fetch(`${server.url}${longPath}`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 200));
      const refusal = server.lines.find((line) => line.includes("Invalid redirectURL"));
      expect(refusal).toBeTruthy();
      expect(refusal).toContain(`[${"Invalid redirectURL: ".length + redirectTo.length} characters]`);
      for (const line of server.lines) expect(line.length).toBeLessThan(4 * 1024);
      const logged = logRecords(server.lines).find((r) => r.msg === "request" && String(r.path).startsWith("/ppp"));
      expect(logged?.path).toMatch(/^\/p{999}… \[15001 characters\]$/);
    } finally {
      await server.stop();
    }
  });
});

test.describe("behind a proxy", () => {
  test("with X-Forwarded-For from nginx, a forged left-most entry is ignored and per-IP limits hold", async () => {
    test.skip(!fs.existsSync(nginxBinary), nginxMissing);
    const server = await startServerProcess({ TRUST_PROXY: "x-forwarded-for", AUTH_RATE_LIMIT: "3" });
    const proxyPort = await freePort();
    const proxy = await startNginx(
      proxyPort,
      () => `server {
    listen 127.0.0.1:${proxyPort};
    location / {
      proxy_pass ${server.url};
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }`,
    ).catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    try {
      // Every attempt claims a new address; nginx appends the one it really saw (127.0.0.1).
      const statuses: number[] = [];
      for (let i = 1; i <= 5; i++) {
        const response = await fetch(`${proxy.url}/api/auth/sign-in/email`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: server.url,
            "x-forwarded-for": `198.51.100.${i}`,
          },
          body: JSON.stringify({ email: "nobody@example.com", password: "not-the-password" }),
        });
        statuses.push(response.status);
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual([429, 429]);
    } finally {
      await proxy.stop();
      await server.stop();
    }
  });

  test("behind a proxy that ends TLS on another port, the pages' actions are accepted from the site's Origin only", async () => {
    // The browser is on https://upskill.example; the server sees plain HTTP and its own Host.
    const site = "https://upskill.example";
    const server = await startServerProcess({ APP_URL: site, TRUST_PROXY: "x-forwarded-for" });
    try {
      const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: site, "x-forwarded-for": "203.0.113.9" },
        body: JSON.stringify(newAccount("Proxied")),
      });
      expect(signUp.status).toBe(200);
      const cookie = signUp.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const addLink = (origin: string) =>
        fetch(`${server.url}/dashboard.data`, {
          method: "POST",
          headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ intent: "add-task-link", link: "https://github.com/upskill/proxied" }),
        });
      expect((await addLink(site)).status).toBe(200);
      // Plain http on the same host is another origin: still refused (React Router's check
      // answers before ours, with 400).
      expect((await addLink("http://upskill.example")).status).toBe(400);
    } finally {
      await server.stop();
    }
  });
});

test.describe("data at rest", () => {
  /** Every path under dir (dir included) with its permission bits, for a readable failure. */
  function modes(dir: string): Record<string, string> {
    const result: Record<string, string> = {};
    const walk = (current: string) => {
      const stat = fs.lstatSync(current);
      result[path.relative(dir, current) || "."] =
        `${stat.isDirectory() ? "d" : "f"}${(stat.mode & 0o777).toString(8)}`;
      if (stat.isDirectory()) for (const name of fs.readdirSync(current)) walk(path.join(current, name));
    };
    walk(dir);
    return result;
  }
  const onlyPrivate = (found: Record<string, string>) =>
    Object.fromEntries(Object.keys(found).map((name) => [name, found[name]!.startsWith("d") ? "d700" : "f600"]));

  test("everything the server writes under DATA_DIR is readable by its user only", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-modes-"));
    const dataDir = path.join(parent, "data");
    try {
      const server = await startServerProcess({ DATA_DIR: dataDir });
      await signUp(server.url); // the session row, the outbox, the upload folders
      expect(await server.stop()).toBe(0);
      const found = modes(dataDir);
      expect(Object.keys(found)).toEqual(expect.arrayContaining(["upskill.sqlite", "uploads", "uploads-incoming"]));
      expect(found).toEqual(onlyPrivate(found));
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  test("a data folder an older version left readable is made private at start", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-modes-"));
    try {
      fs.chmodSync(dataDir, 0o755);
      for (const dir of ["uploads/resumes/ab", "outbox", "uploads-incoming"]) {
        fs.mkdirSync(path.join(dataDir, dir), { recursive: true, mode: 0o755 });
        fs.chmodSync(path.join(dataDir, dir), 0o755);
      }
      for (const file of ["uploads/resumes/ab/cv.pdf", "outbox/1.eml", "uploads-incoming/x.json"]) {
        fs.writeFileSync(path.join(dataDir, file), "x", { mode: 0o644 });
        fs.chmodSync(path.join(dataDir, file), 0o644);
      }
      const first = await startServerProcess({ DATA_DIR: dataDir });
      expect(await first.stop()).toBe(0);
      const found = modes(dataDir);
      expect(found).toEqual(onlyPrivate(found));
      const fix = logRecords(first.lines).find((r) => r.msg === "data directory: group and other permissions removed");
      // The folder itself, 5 folders under it and 3 files.
      expect(fix).toMatchObject({ fixed: 9, failed: 0, complete: true });

      const second = await startServerProcess({ DATA_DIR: dataDir });
      expect(await second.stop()).toBe(0);
      expect(logRecords(second.lines).find((r) => r.msg === "data directory is private")).toBeTruthy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
