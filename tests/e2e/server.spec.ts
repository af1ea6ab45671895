import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import zlib from "node:zlib";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { DatabaseSync } from "node:sqlite";
import { logRecords, root, serverEntry, signUpOverHttp, startServerProcess } from "../support/server-process";
import { hasPostgres, startProbeServer, type ProbeDialect } from "../support/probe-server";
import { newPerson, submitIntent } from "./fixtures";

test.describe("HTTP foundation", () => {
  test("every response carries the security headers; dynamic pages use a fresh nonce", async ({ request }) => {
    const headersOf = async (path: string) => (await request.get(path, { maxRedirects: 0 })).headers();
    for (const path of ["/", "/about", "/nope", "/?auth=login", "/healthz", "/robots.txt"]) {
      const headers = await headersOf(path);
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
      expect(headers["content-security-policy"], path).not.toMatch(/script-src[^;]*unsafe-inline/);
    }

    const dynamic = await request.get("/nope");
    const csp = dynamic.headers()["content-security-policy"]!;
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    const html = await dynamic.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const again = (await request.get("/nope")).headers()["content-security-policy"]!;
    expect(again.match(/'nonce-([^']+)'/)?.[1]).not.toBe(nonce);
  });

  test("a signed-in page sent again from memory has a fresh nonce and shows a change at once", async ({
    browser,
    baseURL,
  }) => {
    const learner = await newPerson(browser, baseURL!, "memo");
    const nonceOf = (headers: Record<string, string>) =>
      headers["content-security-policy"]!.match(/'nonce-([^']+)'/)![1]!;
    const pages = [];
    for (let i = 0; i < 3; i++) {
      const response = await learner.page.request.get("/dashboard");
      expect(response.status()).toBe(200);
      pages.push({ nonce: nonceOf(response.headers()), html: await response.text() });
    }
    expect(new Set(pages.map((p) => p.nonce)).size).toBe(3);
    for (const { nonce, html } of pages) {
      const nonces = [...html.matchAll(/\bnonce="([^"]*)"/g)].map((m) => m[1]);
      expect(nonces.length).toBeGreaterThan(0);
      expect(new Set(nonces)).toEqual(new Set([nonce]));
    }
    // The same address and data: the same page, but for the nonce.
    expect(pages[1]!.html.replaceAll(pages[1]!.nonce, "")).toBe(pages[2]!.html.replaceAll(pages[2]!.nonce, ""));

    const link = `https://example.com/memo-${Date.now()}`;
    const added = await submitIntent(learner.page, baseURL!, "/dashboard", { intent: "add-task-link", link });
    expect(added.status).toBe(200);
    expect(await (await learner.page.request.get("/dashboard")).text()).toContain(link);
    await learner.context.close();
  });

  test("a page kept in memory gives way to a write from another process: a rename shows, a deleted session ends", async () => {
    const server = await startServerProcess({ NODE_ENV: "production", LOG_LEVEL: "warn" });
    try {
      const cookie = await signUpOverHttp(server.url, {
        username: "Kept Page",
        email: "kept@example.com",
        password: "kept-password-1",
      });
      const get = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie }, redirect: "manual" });
      const hits = async () =>
        Number(
          (await (await fetch(`${server.url}/metrics`)).text()).match(
            /signed_in_memory_requests_total\{result="hit"\} (\d+)/,
          )?.[1] ?? 0,
        );
      for (const path of ["/dashboard", "/dashboard.data"]) {
        const first = await get(path);
        expect(first.status).toBe(200);
        expect(await first.text()).toContain("Kept Page");
      }
      const hitsBefore = await hits();
      const again = await get("/dashboard");
      expect(await again.text()).toContain("Welcome Kept Page!");
      expect(await hits()).toBe(hitsBefore + 1);

      // Another process (npm run role, a second instance on the file) writes: the next answer is new.
      const db = new DatabaseSync(`${server.dataDir}/upskill.sqlite`);
      try {
        db.exec("PRAGMA busy_timeout = 5000");
        db.prepare(`update "user" set username = 'Renamed Elsewhere' where email = ?`).run("kept@example.com");
        expect(await (await get("/dashboard")).text()).toContain("Welcome Renamed Elsewhere!");
        expect(await (await get("/dashboard.data")).text()).toContain("Renamed Elsewhere");
        db.prepare(`delete from session`).run();
      } finally {
        db.close();
      }
      const after = await get("/dashboard");
      expect(after.status).toBeGreaterThanOrEqual(300);
      expect(after.status).toBeLessThan(400);
      expect((await get("/dashboard.data")).status).not.toBe(200);
    } finally {
      await server.stop();
    }
  });

  test("the anonymous landing page is cached, precompressed and allowed by script hashes", async ({ request }) => {
    const response = await request.get("/", { headers: { "accept-encoding": "br" } });
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers["etag"]).toMatch(/^"p-/);
    expect(headers["vary"]).toContain("Cookie");
    const html = await response.text();
    const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline.length).toBeGreaterThan(0);
    for (const body of inline) {
      const hash = createHash("sha256").update(body).digest("base64");
      expect(headers["content-security-policy"]).toContain(`'sha256-${hash}'`);
    }
    const notModified = await request.get("/", { headers: { "if-none-match": headers["etag"]! } });
    expect(notModified.status()).toBe(304);
  });

  test("the cached landing page goes out whole and alike on a kept connection, pipelined, closing, HTTP/1.0 and HEAD", async ({
    baseURL,
  }) => {
    const { hostname, port } = new URL(baseURL!);
    /** Writes the requests at once on one connection; reads until the server closes it. */
    const exchange = async (requests: string) => {
      const socket = net.connect(Number(port), hostname);
      const chunks: Buffer[] = [];
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.write(requests);
      await new Promise((resolve) => socket.once("close", resolve));
      return Buffer.concat(chunks);
    };
    /** Each response's header lines (but those that differ by request or connection) and body. */
    const split = (received: Buffer, withBodies = true) => {
      const found: { headers: string[]; connection: string; body: Buffer }[] = [];
      let at = 0;
      while (at < received.length) {
        const end = received.indexOf("\r\n\r\n", at);
        const lines = received.subarray(at, end).toString("latin1").split("\r\n");
        const length = withBodies ? Number(lines.find((l) => l.startsWith("Content-Length: "))!.slice(16)) : 0;
        found.push({
          headers: lines.filter((l) => !/^(Date|X-Request-Id|Connection|Keep-Alive):/.test(l)),
          connection: lines.find((l) => l.startsWith("Connection: ")) ?? "",
          body: received.subarray(end + 4, end + 4 + length),
        });
        at = end + 4 + length;
      }
      return found;
    };
    const get = (extra = "") => `GET / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept-Encoding: gzip\r\n${extra}\r\n`;

    const [first, second, last, ...rest] = split(await exchange(get() + get() + get("Connection: close\r\n")));
    expect(rest).toEqual([]);
    expect(first!.headers[0]).toBe("HTTP/1.1 200 OK");
    expect(first!.headers).toContain("Content-Encoding: gzip");
    expect([first!.connection, second!.connection, last!.connection]).toEqual([
      "Connection: keep-alive",
      "Connection: keep-alive",
      "Connection: close",
    ]);
    for (const other of [second!, last!]) {
      expect(other.headers).toEqual(first!.headers);
      expect(other.body.equals(first!.body)).toBe(true);
    }
    expect(zlib.gunzipSync(first!.body).toString()).toContain("<html");

    const [old] = split(await exchange(`GET / HTTP/1.0\r\nHost: ${hostname}:${port}\r\nAccept-Encoding: gzip\r\n\r\n`));
    expect(old!.headers).toEqual(first!.headers);
    expect(old!.body.equals(first!.body)).toBe(true);
    const [head] = split(
      await exchange(`HEAD / HTTP/1.1\r\n${get("Connection: close\r\n").split("\r\n").slice(1).join("\r\n")}`),
      false,
    );
    expect(head!.headers).toEqual(first!.headers);
  });

  test("hashed assets are immutable and precompressed", async ({ request }) => {
    // /verify is hydrated (the public pages without anything interactive go out without scripts).
    const html = await (await request.get("/verify")).text();
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const response = await request.get(asset!, { headers: { "accept-encoding": "gzip, br" } });
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers()["content-encoding"]).toBe("br");
    expect(response.headers()["content-type"]).toContain("text/javascript");
  });

  test("sitemap, robots and favicon", async ({ request }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.status()).toBe(200);
    const xml = await sitemap.text();
    for (const path of ["/about", "/contact", "/PrivacyPolicy", "/RefundPolicy", "/TermsAndConditions"]) {
      expect(xml).toContain(`${path}</loc>`);
    }
    expect(await (await request.get("/robots.txt")).text()).toContain("Sitemap: ");
    const favicon = await request.get("/favicon.ico");
    expect(favicon.status()).toBe(200);
  });

  test("healthz answers 200 when the database answers", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "up" });
  });
});

test.describe("server process", () => {
  test("logs one structured line per request, and a 404 without a stack", async () => {
    const server = await startServerProcess();
    try {
      expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 200));
      const records = logRecords(server.lines);
      const line = records.find((r) => r.path === "/no-such-page");
      expect(line).toMatchObject({ method: "GET", status: 404, msg: "request" });
      expect(typeof line!.reqId).toBe("string");
      expect(typeof line!.ms).toBe("number");
      expect(server.lines.join("\n")).not.toMatch(/stack|at .*\.js:\d+/i);
    } finally {
      await server.stop();
    }
  });

  test("keeps its data across a restart", async () => {
    const dataDir = fs.mkdtempSync(`${root}/.tmp-data-`);
    try {
      const first = await startServerProcess({ DATA_DIR: dataDir });
      expect(await first.stop()).toBe(0);
      expect(fs.existsSync(`${dataDir}/upskill.sqlite`)).toBe(true);
      const second = await startServerProcess({ DATA_DIR: dataDir });
      const ready = logRecords(second.lines).find((r) => r.msg === "database ready");
      expect(ready).toMatchObject({ database: "sqlite", applied: [] });
      expect(await second.stop()).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("SIGTERM stops accepting, finishes the request in flight, and exits 0", async () => {
    const server = await startServerProcess();
    const port = Number(new URL(server.url).port);
    // A request whose body is still arriving is in flight until it is complete.
    const body = JSON.stringify({ email: "nobody@example.com", password: "not-the-password" });
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    let reply = "";
    socket.on("data", (chunk) => (reply += chunk.toString()));
    socket.write(
      `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n` +
        body.slice(0, 10),
    );
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    expect(server.child.exitCode).toBeNull();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    socket.write(body.slice(10));
    await new Promise((r) => socket.once("close", r));
    expect(reply).toMatch(/^HTTP\/1.1 (200|401|403|429)/);
    expect(await server.exited).toBe(0);
    expect(logRecords(server.lines).some((r) => r.msg === "stopped")).toBe(true);
  });

  test("an invalid setting stops the start with a message naming it", () => {
    const result = spawnSync(process.execPath, [serverEntry], {
      cwd: root,
      env: { ...process.env, PORT: "not-a-port", SITE_EMAIL: "nope" },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT="not-a-port" is not valid: expected a whole number from 1 to 65535');
    expect(result.stderr).toContain('SITE_EMAIL="nope" is not valid: expected an email address');
  });

  test("on a Node older than 22.22 it stops at once with one line", () => {
    const oldNode = ["/usr/bin/node", "/usr/local/bin/node"].find((candidate) => {
      if (!fs.existsSync(candidate)) return false;
      const version = execFileSync(candidate, ["--version"], { encoding: "utf8" }).trim().slice(1);
      const [major = 0, minor = 0] = version.split(".").map(Number);
      return major < 22 || (major === 22 && minor < 22);
    });
    test.skip(!oldNode, "no Node older than 22.22 on this machine to start the server with");
    for (const entry of [serverEntry, `${root}/server.js`]) {
      const result = spawnSync(oldNode!, [entry], { cwd: root, encoding: "utf8", env: { ...process.env } });
      expect(result.status, entry).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines, entry).toHaveLength(1);
      expect(lines[0]).toMatch(/^Upskill needs Node\.js 22\.22 or newer \(this is 20\./);
    }
  });
});

test.describe("PostgreSQL", () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  test("healthz answers 503 when the database stops answering", async () => {
    test.skip(!adminUrl, "PostgreSQL pass skipped: TEST_DATABASE_URL is not set");
    const name = `upskill_health_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const server = await startServerProcess({ DATABASE_URL: url.toString() });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: "unavailable", database: "down" });
    } finally {
      await server.stop();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

// After a write, a session's requests in flight (tabs, a page and its data, live updates) all
// miss at once; one render serves them. On PostgreSQL a render waits on the database between
// its reads, so the others arrive while it is being made.
for (const dialect of ["sqlite", "postgres"] as ProbeDialect[]) {
  test.describe(`kept answers made once [${dialect}]`, () => {
    test.skip(dialect === "postgres" && !hasPostgres, "PostgreSQL pass skipped: TEST_DATABASE_URL is not set");

    test("requests that arrive together for an answer being made wait for it: the page is rendered once", async () => {
      const server = await startProbeServer(dialect, { NODE_ENV: "production", WEB_CONCURRENCY: "1" });
      try {
        const learner = await server.signUp("Together");
        const counted = async () => {
          const metrics = await (await fetch(`${server.url}/metrics`)).text();
          const count = (result: string) =>
            Number(
              new RegExp(`signed_in_memory_requests_total\\{result="${result}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0,
            );
          return { hits: count("hit"), misses: count("miss") };
        };
        const before = await counted();
        // An address nothing was kept for, asked twelve times at once.
        const answers = await Promise.all(
          Array.from({ length: 12 }, () =>
            fetch(`${server.url}/dashboard?together=1`, { headers: { cookie: learner.cookie } }).then(
              async (response) => ({
                status: response.status,
                html: await response.text(),
                nonce: /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "",
              }),
            ),
          ),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(200);
          expect(answer.html).toContain(`Welcome ${learner.username}!`);
        }
        // One made it; the others waited for it and were answered from memory, each with a nonce of its own.
        // Each request counted once, as a hit or a miss.
        const after = await counted();
        expect(after.hits).toBeGreaterThanOrEqual(before.hits + 10);
        expect(after.hits - before.hits + (after.misses - before.misses)).toBe(12);
        expect(new Set(answers.map((answer) => answer.nonce)).size).toBe(12);
        const same = (answer: (typeof answers)[number]) => answer.html.replaceAll(answer.nonce, "");
        expect(new Set(answers.map(same)).size).toBe(1);
      } finally {
        await server.stop();
      }
    });

    test("the answer a render makes goes out as the kept answers after it do: compressed once, its length known", async () => {
      const server = await startProbeServer(dialect, { NODE_ENV: "production", WEB_CONCURRENCY: "1" });
      try {
        const learner = await server.signUp("Once");
        const get = async (path: string, acceptEncoding: string) => {
          const headers = { cookie: learner.cookie, "accept-encoding": acceptEncoding };
          const response = await fetch(`${server.url}${path}`, { headers });
          return {
            encoding: response.headers.get("content-encoding") ?? "identity",
            length: response.headers.get("content-length"),
            nonce: /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "",
            // fetch decodes the body: an outside decoder of what was sent.
            body: await response.text(),
          };
        };
        const chromium = "gzip, deflate, br, zstd";
        // Addresses nothing was kept for: the first answer of each is a render's.
        const made = await get("/dashboard?once=1", chromium);
        const kept = await get("/dashboard?once=1", chromium);
        for (const page of [made, kept]) {
          // A page with a nonce goes in gzip, joined from parts compressed once (not br streamed, then gzip).
          expect(page.encoding).toBe("gzip");
          expect(Number(page.length)).toBeGreaterThan(0);
          expect(page.body).toContain(`Welcome ${learner.username}!`);
          const nonces = [...page.body.matchAll(/\bnonce="([^"]*)"/g)].map((match) => match[1]);
          expect(nonces.length).toBeGreaterThan(0);
          expect(new Set(nonces)).toEqual(new Set([page.nonce]));
        }
        expect(made.nonce).not.toBe(kept.nonce);
        expect(made.body.replaceAll(made.nonce, "")).toBe(kept.body.replaceAll(kept.nonce, ""));

        // Loader data has no nonce: the best encoding the client takes, the same bytes both times.
        const data = [await get("/dashboard.data?once=1", chromium), await get("/dashboard.data?once=1", chromium)];
        expect(data.map((answer) => answer.encoding)).toEqual(["br", "br"]);
        expect(data[0]!.length).toBe(data[1]!.length);
        expect(data[0]!.body).toBe(data[1]!.body);

        // A client that asks for no compression gets none, made or kept.
        const plain = [await get("/dashboard?plain=1", "identity"), await get("/dashboard?plain=1", "identity")];
        for (const page of plain) {
          expect(page.encoding).toBe("identity");
          expect(Number(page.length)).toBe(Buffer.byteLength(page.body));
        }
      } finally {
        await server.stop();
      }
    });
  });
}
