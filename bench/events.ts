// The live event streams under load: 10,000 open /api/events streams (1,000 learners, 10 tabs
// each) on one server instance, then the same streams split over two instances sharing one
// PostgreSQL database. For each: the server's memory, the time from a message being sent to its
// event arriving on each of the learner's streams (one at a time), and a burst (a message to every
// learner at once, so every stream receives one).
// This process sends through the same server functions the staff actions call (sendMessage for
// one learner, sendToSelected for the burst), whose NOTIFYs each instance relays to its streams.
// Run: npm run build && node bench/events.ts   (BENCH_LEARNERS, BENCH_TABS, BENCH_ROUNDS to vary;
// BENCH_SMOKE=1 for a seconds-long check)
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import pg from "pg";
import type { Actor } from "../app/core/people.ts";
import "../scripts/app-module-hooks.ts";
import { signUpOverHttp, startServerProcess, type ServerProcess } from "../tests/support/server-process.ts";

// Loaded once the hooks above are in place: the app's modules use ~/ and extensionless imports,
// which static imports would resolve before the hooks are registered.
const { sendToSelected } = await import("~/staff/staff-actions.server");
const { sendMessage } = await import("~/messages/messages.server");
const { PostgresBus } = await import("~/realtime/bus.server");
const { maxStreamsPerUser } = await import("~/realtime/events");
const { openDatabase } = await import("~/db/database.server");

const smoke = process.env.BENCH_SMOKE === "1";
const learners = Number(process.env.BENCH_LEARNERS ?? (smoke ? 5 : 1000));
const tabs = Math.min(maxStreamsPerUser, Number(process.env.BENCH_TABS ?? (smoke ? 4 : maxStreamsPerUser)));
const rounds = Number(process.env.BENCH_ROUNDS ?? (smoke ? 10 : 200));
const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const schema = `bench_events_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
await admin.query(`CREATE SCHEMA "${schema}"`);
const schemaUrl = `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
// One secret for both instances, as a deployment of several sets it.
const serverEnv = {
  DATABASE_URL: schemaUrl,
  AUTH_SECRET: randomUUID() + randomUUID(),
  AUTH_RATE_LIMIT: "1000000",
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
};

// Opened as the server opens it: its writes raise the kept answers' versions the same way.
const database = await openDatabase({ databaseUrl, dataDir: "", schema });
const db = database.db;
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
const rssMb = (server: ServerProcess) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const mb = (v: number) => `${v.toFixed(1)} MB`;

/** Signs up one account through the real endpoint; it keeps its session cookie. */
async function signUpOne(base: string, i: number): Promise<{ id: string; cookie: string }> {
  const email = `bench-${i}@example.com`;
  const cookie = await signUpOverHttp(base, { username: `bench${i}`, email, password: "bench-password-1" });
  const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return { id: user.id, cookie };
}

/** Signs up the learners, a few at a time. */
async function signUp(base: string): Promise<{ id: string; cookie: string }[]> {
  const accounts: { id: string; cookie: string }[] = new Array(learners);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < learners; i = next++) accounts[i] = await signUpOne(base, i);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return accounts;
}

/** Opens one stream and resolves once its `ready` event arrived. */
function openStream(base: string, learner: number, cookie: string, agent: http.Agent): Promise<Stream> {
  return new Promise<Stream>((resolve, reject) => {
    const stream: Stream = { learner, received: () => {}, request: undefined as unknown as http.ClientRequest };
    stream.request = http.get(`${base}/api/events`, { agent, headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream: HTTP ${res.statusCode}`));
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const at = performance.now();
        text += chunk;
        let end: number;
        while ((end = text.indexOf("\n\n")) !== -1) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          if (block.includes("event: ready")) resolve(stream);
          else if (block.startsWith("data: ")) stream.received(at);
        }
      });
    });
    stream.request.on("error", reject);
  });
}

/**
 * Opens every learner's tabs, tab t on instance t mod the number of instances, a few hundred
 * connecting at a time (10,000 at once overflow the listen backlog; browsers never do that).
 */
async function openStreams(servers: ServerProcess[], accounts: { cookie: string }[], agent: http.Agent) {
  const wanted = Array.from({ length: learners * tabs }, (_, i) => ({
    learner: Math.floor(i / tabs),
    base: servers[(i % tabs) % servers.length]!.url,
  }));
  const streams: Stream[] = [];
  let next = 0;
  const opener = async () => {
    for (let i = next++; i < wanted.length; i = next++) {
      const { learner, base } = wanted[i]!;
      streams.push(await openStream(base, learner, accounts[learner]!.cookie, agent));
    }
  };
  await Promise.all(Array.from({ length: 200 }, opener));
  return streams;
}

/** Waits for one receipt on each of the given streams, recording each one's latency from `from`. */
function receipts(streams: Stream[], from: () => number, into: number[], label: string): Promise<void> {
  let left = streams.length;
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label}: ${left} streams got nothing in 10 s`)), 10_000);
    for (const s of streams) {
      s.received = (at) => {
        into.push(at - from());
        s.received = () => {};
        if (--left === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
    }
  });
}

async function measure(servers: ServerProcess[], accounts: { id: string; cookie: string }[], staff: Actor) {
  const idle = servers.map(rssMb);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const openStart = performance.now();
  const streams = await openStreams(servers, accounts, agent);
  const openMs = performance.now() - openStart;
  await new Promise((r) => setTimeout(r, 2_000));
  const open = servers.map(rssMb);

  // One message at a time to one learner; every one of that learner's tabs must receive it.
  const single: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const learner = r % learners;
    let sentAt = 0;
    const done = receipts(
      streams.filter((s) => s.learner === learner),
      () => sentAt,
      single,
      `round ${r}`,
    );
    sentAt = performance.now();
    await sendMessage(
      { db, bus },
      { learnerId: accounts[learner]!.id, kind: "notice", html: `<p>Round ${r}</p>`, sentBy: null },
    );
    await done;
  }

  // A burst: staff send to every learner at once (one bulk send), so every stream receives one.
  const burst: number[] = [];
  const burstStart = performance.now();
  const burstDone = receipts(streams, () => burstStart, burst, "burst");
  const bulk = await sendToSelected({ db, bus }, staff, {
    learnerIds: accounts.map((a) => a.id),
    kind: "task",
    html: "<p>Bulk</p>",
  });
  if (!bulk.ok) throw new Error(`bulk send: ${bulk.message}`);
  await burstDone;
  const peak = servers.map(rssMb);
  for (const s of streams) s.request.destroy();
  agent.destroy();

  const where = servers.length === 1 ? "one instance" : `${servers.length} instances`;
  console.log(
    `event streams on ${where}: ${streams.length} open (${learners} learners, ${tabs} tabs each), opened in ${ms(openMs)}`,
  );
  console.log(
    `  single sends: ${rounds} messages, ${single.length} receipts; send-to-receipt p50 ${ms(percentile(single, 50))}, p99 ${ms(percentile(single, 99))}, max ${ms(Math.max(...single))}`,
  );
  console.log(
    `  burst: one bulk send to ${accounts.length} learners, ${burst.length} receipts; p50 ${ms(percentile(burst, 50))}, p99 ${ms(percentile(burst, 99))}`,
  );
  servers.forEach((_, i) => {
    const perStreamKb = ((open[i]! - idle[i]!) * 1024) / (streams.length / servers.length);
    console.log(
      `  instance ${i + 1} memory (RSS): ${mb(idle[i]!)} before the streams, ${mb(open[i]!)} with ${streams.length / servers.length} open (${perStreamKb.toFixed(1)} KB per stream), ${mb(peak[i]!)} after the burst`,
    );
  });
  // Every stream ends when its socket goes: wait for the servers to let go of them.
  await new Promise((r) => setTimeout(r, 1_000));
}

const servers: ServerProcess[] = [];
try {
  const setup = await startServerProcess(serverEnv, { keepLogs: false });
  const { accounts, staff } = await (async () => {
    try {
      // The sender of the burst: one more account, made staff.
      const sender = await signUpOne(setup.url, learners);
      await db.updateTable("user").set({ role: "staff" }).where("id", "=", sender.id).execute();
      return { accounts: await signUp(setup.url), staff: { id: sender.id, name: `bench${learners}`, role: "staff" } };
    } finally {
      await setup.stop();
    }
  })();
  // Fresh instances, so that each one's memory is the streams' and not the sign-ups'.
  for (const instances of [1, 2]) {
    for (let i = 0; i < instances; i++) servers.push(await startServerProcess(serverEnv, { keepLogs: false }));
    await measure(servers, accounts, staff);
    while (servers.length > 0) await servers.pop()!.stop();
  }
} finally {
  for (const server of servers) await server.stop();
  await bus.close();
  await database.close();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
}
