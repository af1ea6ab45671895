// The live event stream under load: 1,000 open /api/events streams on one server instance, and
// the time from a staff message being sent to its event arriving on each of the learner's streams.
// The server runs on PostgreSQL (its own schema); this process sends through the same server
// function the staff endpoints call (sendMessage), whose NOTIFY the server relays to the streams.
// Run: npm run build && node bench/events.ts   (BENCH_STREAMS, BENCH_LEARNERS, BENCH_ROUNDS to vary;
// BENCH_SMOKE=1 for a seconds-long check)
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "../app/db/schema.ts";
import { sendMessage } from "../app/messages/messages.server.ts";
import { PostgresBus } from "../app/realtime/bus.server.ts";
import { startServerProcess } from "../tests/support/server-process.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const streamsWanted = Number(process.env.BENCH_STREAMS ?? (smoke ? 20 : 1000));
const learners = Number(process.env.BENCH_LEARNERS ?? (smoke ? 5 : 50));
const rounds = Number(process.env.BENCH_ROUNDS ?? (smoke ? 10 : 200));
const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const schema = `bench_events_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
await admin.query(`CREATE SCHEMA "${schema}"`);
const schemaUrl = `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;

const server = await startServerProcess(
  { DATABASE_URL: schemaUrl, AUTH_RATE_LIMIT: "100000", LOG_LEVEL: "warn", NODE_ENV: "production" },
  { keepLogs: false },
);
const base = server.url;
const rssKb = () =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8"))?.[1] ?? 0);

const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: schemaUrl, max: 4 }) }),
});
const bus = new PostgresBus({ connectionString: databaseUrl });
await bus.ready();

interface Stream {
  learner: number;
  received: (at: number) => void;
  request: http.ClientRequest;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

try {
  // Learners sign up through the real endpoint; each keeps its session cookie.
  const accounts: { id: string; cookie: string }[] = [];
  for (let i = 0; i < learners; i++) {
    const email = `bench-${i}@example.com`;
    const response = await fetch(`${base}/api/auth/sign-up/email`, {
      method: "POST",
      // The server only accepts its own APP_URL as Origin (startServerProcess sets it to base).
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({
        username: `bench${i}`,
        phone: "9876543210",
        course: "Python",
        gender: "male",
        email,
        password: "bench-password-1",
        confirmPassword: "bench-password-1",
      }),
    });
    if (!response.ok) throw new Error(`sign-up ${i}: ${response.status} ${await response.text()}`);
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    accounts.push({ id: user.id, cookie });
  }

  const idleRss = rssKb();
  // Open the streams (one per "tab"), spread evenly over the learners.
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const pending = new Map<number, (at: number) => void>();
  const streams: Stream[] = [];
  const ready: Promise<void>[] = [];
  for (let s = 0; s < streamsWanted; s++) {
    const learner = s % learners;
    const stream: Stream = { learner, received: () => {}, request: undefined as unknown as http.ClientRequest };
    ready.push(
      new Promise<void>((resolve, reject) => {
        stream.request = http.get(
          `${base}/api/events`,
          { agent, headers: { cookie: accounts[learner]!.cookie } },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`stream ${s}: HTTP ${res.statusCode}`));
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => {
              const at = performance.now();
              text += chunk;
              let end: number;
              while ((end = text.indexOf("\n\n")) !== -1) {
                const block = text.slice(0, end);
                text = text.slice(end + 2);
                if (block.includes("event: ready")) resolve();
                else if (block.startsWith("data: ")) stream.received(at);
              }
            });
          },
        );
        stream.request.on("error", reject);
      }),
    );
    streams.push(stream);
  }
  const openStart = performance.now();
  await Promise.all(ready);
  const openMs = performance.now() - openStart;
  await new Promise((r) => setTimeout(r, 1_000));
  const openRss = rssKb();

  // One message at a time to one learner; every one of that learner's streams must receive it.
  const latencies: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const learner = r % learners;
    const mine = streams.filter((s) => s.learner === learner);
    let left = mine.length;
    const sentAt = performance.now();
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`round ${r}: ${left} streams got nothing in 5 s`)), 5_000);
      for (const s of mine) {
        s.received = (at) => {
          latencies.push(at - sentAt);
          s.received = () => {};
          if (--left === 0) {
            clearTimeout(timer);
            resolve();
          }
        };
      }
    });
    await sendMessage(
      { db, bus },
      { learnerId: accounts[learner]!.id, kind: "notice", html: `<p>Round ${r}</p>`, sentBy: null },
    );
    await done;
  }

  // A burst: a message to every learner at once (a bulk send), all streams receiving.
  const burst: number[] = [];
  let left = streams.length;
  const burstStart = performance.now();
  const burstDone = new Promise<void>((resolve) => {
    for (const s of streams) {
      s.received = (at) => {
        burst.push(at - burstStart);
        s.received = () => {};
        if (--left === 0) resolve();
      };
    }
  });
  await Promise.all(
    accounts.map((a) => sendMessage({ db, bus }, { learnerId: a.id, kind: "task", html: "<p>Bulk</p>", sentBy: null })),
  );
  await burstDone;
  const peakRss = rssKb();
  pending.clear();

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `event streams: ${streams.length} open on one instance (${learners} learners, ${streams.length / learners} tabs each), opened in ${ms(openMs)}`,
  );
  console.log(
    `single sends: ${rounds} messages, ${latencies.length} receipts; send-to-receipt p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(Math.max(...latencies))}`,
  );
  console.log(
    `burst: ${learners} messages at once, ${burst.length} receipts; p50 ${ms(percentile(burst, 50))}, p99 ${ms(percentile(burst, 99))}`,
  );
  console.log(
    `server memory (RSS): ${(idleRss / 1024).toFixed(1)} MB before the streams, ${(openRss / 1024).toFixed(1)} MB with ${streams.length} open (${(((openRss - idleRss) * 1024) / streams.length / 1024).toFixed(1)} KB per stream), ${(peakRss / 1024).toFixed(1)} MB after the burst`,
  );

  for (const s of streams) s.request.destroy();
  agent.destroy();
} finally {
  await server.stop();
  await bus.close();
  await db.destroy();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
}
