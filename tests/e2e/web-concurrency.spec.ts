import fs from "node:fs";
import http from "node:http";
import { DatabaseSync } from "node:sqlite";
import net from "node:net";
import { expect, test } from "@playwright/test";
import { logRecords, signUpOverHttp, startServerProcess, type ServerProcess } from "../support/server-process";

/**
 * `npm start` with WEB_CONCURRENCY=2 on SQLite: a primary and two workers sharing the port. The
 * primary hands each new connection to the next worker, so a test that must reach both opens a
 * connection per request (Node's http with no agent) and reads which process answered from the
 * request id (its start and pid, then a count).
 */
const authRateLimit = 12;
let server: ServerProcess;

interface Answer {
  status: number;
  body: string;
  worker: string;
}

const workerOf = (requestId: string | string[] | undefined) => String(requestId).replace(/-[^-]+$/, "");

/** One request on a connection of its own. */
function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.url}${path}`,
      { method: options.method ?? "GET", headers: options.headers, agent: false },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, body, worker: workerOf(response.headers["x-request-id"]) }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The same request, up to 20 times, until both workers have answered it: their answers by worker. */
async function answersByWorker(path: string, headers: Record<string, string> = {}): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  for (let i = 0; i < 20 && answers.size < 2; i++) {
    const answer = await send(path, { headers });
    answers.set(answer.worker, answer);
  }
  return answers;
}

async function fromEachWorker(path: string, headers: Record<string, string> = {}): Promise<Map<string, Answer>> {
  const answers = await answersByWorker(path, headers);
  expect([...answers.keys()], `${path} answered by both workers`).toHaveLength(2);
  return answers;
}

interface Stream {
  worker: string;
  events: unknown[];
  close(): void;
}

/** A tab's event stream (/api/events), on a connection of its own, once its `ready` event came. */
function openStream(cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}/api/events`, { headers: { cookie }, agent: false }, (response) => {
      expect(response.statusCode).toBe(200);
      const stream: Stream = {
        worker: workerOf(response.headers["x-request-id"]),
        events: [],
        close: () => request.destroy(),
      };
      let buffered = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffered += chunk;
        let end: number;
        while ((end = buffered.indexOf("\n\n")) !== -1) {
          const message = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (message.includes("event: ready")) resolve(stream);
          else if (message.startsWith("data: ")) stream.events.push(JSON.parse(message.slice(6)));
        }
      });
    });
    request.on("error", (error) => (error.message === "socket hang up" ? undefined : reject(error)));
  });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A learner's change through a page's action (the dashboard's or the settings'), as its forms send it. */
function learnerChange(
  page: "/dashboard" | "/settings",
  cookie: string,
  fields: Record<string, string>,
): Promise<Answer> {
  return send(`${page}.data`, {
    method: "POST",
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: form(fields),
  });
}

let learners = 0;
const signUp = (name: string) => {
  learners++;
  return signUpOverHttp(server.url, {
    username: `${name} ${learners}`,
    email: `${name.toLowerCase()}-${learners}@example.com`,
    password: "several-processes-1",
  });
};

test.describe.configure({ mode: "serial" });

test.describe("npm start with two server processes on SQLite", () => {
  test.beforeAll(async () => {
    server = await startServerProcess(
      { NODE_ENV: "production", WEB_CONCURRENCY: "2", LOG_LEVEL: "warn", AUTH_RATE_LIMIT: String(authRateLimit) },
      { readyWithinMs: 60_000 },
    );
    // The first worker to listen answers /healthz; wait for the second as well.
    await expect
      .poll(async () => (await answersByWorker("/healthz")).size, { timeout: 60_000, intervals: [250] })
      .toBe(2);
  });

  test.afterAll(async () => {
    if (server.child.exitCode === null) await server.stop();
  });

  test("a learner's change made on one worker reaches the tab streaming from the other, and both workers' kept answers show it", async () => {
    const cookie = await signUp("Streaming");
    // Streams until both workers hold some (each new connection goes to the next worker).
    const streams: Stream[] = [];
    while (new Set(streams.map((s) => s.worker)).size < 2 && streams.length < 8) streams.push(await openStream(cookie));
    expect(new Set(streams.map((s) => s.worker)).size).toBe(2);
    try {
      // Each worker answers the settings' data and keeps the answer.
      for (const answer of (await fromEachWorker("/settings.data", { cookie })).values())
        expect(answer.body).toContain("9876543210");

      const change = await learnerChange("/settings", cookie, {
        intent: "update-profile",
        phone: "9123456789",
        course: "Python",
      });
      expect(change.status, change.body).toBe(200);
      expect(streams.some((stream) => stream.worker !== change.worker)).toBe(true);
      for (const stream of streams)
        await expect.poll(() => stream.events, { timeout: 5_000 }).toContainEqual({ type: "profile" });

      for (const answer of (await fromEachWorker("/settings.data", { cookie })).values())
        expect(answer.body).toContain("9123456789");
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  test("a page one worker made is answered from memory by the other", async () => {
    const cookie = await signUp("Shared");
    const misses = async () =>
      Number(/^signed_in_memory_requests_total\{result="miss"\} (\d+)$/m.exec((await send("/metrics")).body)?.[1]);
    const before = await misses();
    const made = await send("/dashboard.data", { headers: { cookie } });
    expect(made.status).toBe(200);
    // Handed to the other worker through the primary meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const answer of (await fromEachWorker("/dashboard.data", { cookie })).values()) {
      expect(answer.body).toBe(made.body);
    }
    // Only the first request was answered by the router; every other one, on either worker, from memory.
    expect(await misses()).toBe(before + 1);
  });

  test("an admin's change to a public page on one worker rebuilds both workers' page cache", async () => {
    const cookie = await signUp("Admin");
    const db = new DatabaseSync(`${server.dataDir}/upskill.sqlite`);
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      db.prepare(`update "user" set role = 'admin' where email = ?`).run(`admin-${learners}@example.com`);
    } finally {
      db.close();
    }
    for (const answer of (await fromEachWorker("/about")).values()) expect(answer.status).toBe(200);
    const text = `Changed through one of two processes at ${Date.now()}.`;
    const body = new FormData();
    for (const [name, value] of Object.entries({ intent: "save-page", slug: "about", body: text }))
      body.append(name, value);
    const saved = await fetch(`${server.url}/staff/site.data`, {
      method: "POST",
      headers: { cookie, origin: server.url },
      body,
    });
    expect(saved.status, await saved.text()).toBe(200);
    await expect
      .poll(async () => [...(await fromEachWorker("/about")).values()].map((answer) => answer.body.includes(text)), {
        timeout: 5_000,
      })
      .toEqual([true, true]);
  });

  test("learners writing at once through both workers all get their answer, none a 5xx", async () => {
    const cookies = await Promise.all(["Writer", "Writer", "Writer", "Writer", "Writer"].map(signUp));
    const writes = cookies.flatMap((cookie, i) =>
      Array.from({ length: 10 }, (_, n) =>
        n % 2 === 0
          ? learnerChange("/settings", cookie, {
              intent: "update-profile",
              phone: `91234${String(i * 100 + n).padStart(5, "0")}`,
              course: "Python",
            })
          : learnerChange("/dashboard", cookie, {
              intent: "add-task-link",
              link: `https://example.com/task/${i}/${n}`,
            }),
      ),
    );
    const answers = await Promise.all(writes);
    expect(
      answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body}`),
    ).toEqual([]);
    expect(new Set(answers.map((answer) => answer.worker)).size).toBe(2);
  });

  test("/metrics counts every worker's requests, whichever worker answers the scrape", async () => {
    const hits = (text: string) => Number(/^page_cache_requests_total\{result="hit"\} (\d+)$/m.exec(text)?.[1]);
    const before = [...(await fromEachWorker("/metrics")).values()].map((answer) => hits(answer.body));
    expect(before[0]).toBe(before[1]);
    const pages = await Promise.all(Array.from({ length: 6 }, () => send("/about")));
    expect(new Set(pages.map((page) => page.worker)).size).toBe(2);
    for (const answer of (await fromEachWorker("/metrics")).values()) expect(hits(answer.body)).toBe(before[0]! + 6);
  });

  test("the per-IP sign-in limit counts attempts on both workers together", async () => {
    const attempts: Answer[] = [];
    for (let i = 0; i <= authRateLimit; i++) {
      attempts.push(
        await send("/api/auth/sign-in/email", {
          method: "POST",
          headers: { origin: server.url, "content-type": "application/json" },
          body: JSON.stringify({ email: `nobody-${i}@example.com`, password: "not-the-password" }),
        }),
      );
    }
    expect(new Set(attempts.map((attempt) => attempt.worker)).size).toBe(2);
    expect(attempts.slice(0, authRateLimit).map((attempt) => attempt.status)).not.toContain(429);
    expect(attempts.at(-1)!.status).toBe(429);
  });

  test("the primary copies SQLite's write-ahead log back into the file, so no worker's commit does", async () => {
    // 1,200 pages written by another program that never checkpoints, while the workers write nothing:
    // only the primary's timer puts them into the database file.
    const file = `${server.dataDir}/upskill.sqlite`;
    const outside = new DatabaseSync(file);
    try {
      outside.exec("PRAGMA busy_timeout = 5000; PRAGMA wal_autocheckpoint = 0");
      const before = fs.statSync(file).size;
      outside.exec("begin immediate; create table wal_filler (bytes blob)");
      const insert = outside.prepare("insert into wal_filler values (zeroblob(4000))");
      for (let row = 0; row < 1_200; row++) insert.run();
      outside.exec("commit");
      await expect
        .poll(() => fs.statSync(file).size - before, { timeout: 5_000, intervals: [100] })
        .toBeGreaterThan(1_200 * 4096);
      outside.exec("drop table wal_filler");
    } finally {
      outside.close();
    }
  });

  test("a worker that dies is started again, and both serve", async () => {
    const primary = server.child.pid!;
    const workers = fs.readFileSync(`/proc/${primary}/task/${primary}/children`, "utf8").trim().split(" ").map(Number);
    expect(workers).toHaveLength(2);
    const before = new Set((await fromEachWorker("/healthz")).keys());
    process.kill(workers[0]!, "SIGKILL");
    await expect
      .poll(() => logRecords(server.lines).find((line) => line.msg === "a server process died; starting another"))
      .toMatchObject({ pid: workers[0], signal: "SIGKILL", restartInMs: 500 });
    await expect
      .poll(async () => [...(await answersByWorker("/healthz")).keys()].filter((worker) => !before.has(worker)), {
        timeout: 60_000,
        intervals: [250],
      })
      .toHaveLength(1);
  });

  test("SIGTERM to the primary drains both workers: readyz 503, requests in flight finish, exit 0", async () => {
    const port = Number(new URL(server.url).port);
    const body = JSON.stringify({ email: "nobody@example.com", password: "not-the-password" });
    // Four requests in flight (their bodies still arriving), on connections spread over the workers.
    const sockets = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const socket = net.connect(port, "127.0.0.1");
        await new Promise((r) => socket.once("connect", r));
        const held = { socket, reply: "" };
        socket.on("data", (chunk) => (held.reply += chunk.toString()));
        socket.write(
          `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
            body.slice(0, 10),
        );
        return held;
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    for (const { socket } of sockets)
      socket.write(body.slice(10) + `GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    await Promise.all(sockets.map(({ socket }) => new Promise((r) => socket.once("close", r))));
    const workers = new Set<string>();
    for (const { reply } of sockets) {
      const answers = reply.split(/(?=HTTP\/1\.1 )/);
      expect(answers[0]).toMatch(/^HTTP\/1.1 (200|401|403|429)/);
      workers.add(workerOf(/^x-request-id: (\S+)/im.exec(answers[0]!)?.[1]));
      expect(answers[1]).toMatch(/^HTTP\/1.1 503/);
      expect(answers[1]).toContain('{"status":"shutting down"}');
    }
    expect(workers.size).toBe(2);
    expect(await server.exited).toBe(0);
  });
});
