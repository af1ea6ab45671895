// The learning loop at an institute's size: 100 batches, 2,000 learners (20 a batch), 50
// assignments a batch with their hand-ins, statuses, comments and task messages. Measured over
// HTTP on the production build: the review queue (/staff/reviews and its .data, as the trainer of
// 5 batches sees it first and with every batch), the learner home (/dashboard and its .data) and
// the per-assignment matrix (/staff/assignments/:id), each request at an address of its own so
// nothing kept answers it (as after a write), beside /healthz and the cached landing page in the
// same run. p50/p95 per page, with the load average at the time. The server runs as `npm start`
// does (WEB_CONCURRENCY: one process per core unless set).
// Targets (p95): review queue < 100 ms, learner home < 50 ms, matrix < 150 ms.
//   npm run bench:assignments [-- --requests 200 --concurrency 4 --only reviews]
// --only keeps the rows whose label holds that text (with BENCH_PROFILE, a profile of one page).
// SQLite always; PostgreSQL too with TEST_DATABASE_URL (a database of its own,
// upskill_bench_assignments plus BENCH_DATABASE_SUFFIX). Needs a build (npm run build).
// BENCH_SMOKE=1: 3 batches, 30 learners, 4 assignments, a few requests: it only has to run.
// BENCH_PROFILE=dir: the server writes a CPU profile there (node --cpu-prof) when it stops.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import pg from "pg";
import "../scripts/app-module-hooks.ts";
import { signUpOverHttp, startServerProcess, type ServerProcess } from "../tests/support/server-process.ts";
import { seedLearningLoop, type LoopSize } from "./assignments-data.ts";
import { percentile } from "./placement-data.ts";

const { openDatabase } = await import("~/db/database.server");

const smoke = process.env.BENCH_SMOKE === "1";
const { values } = parseArgs({
  options: {
    requests: { type: "string", default: smoke ? "6" : "200" },
    concurrency: { type: "string", default: "4" },
    only: { type: "string", default: "" },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const size: LoopSize = smoke
  ? { batches: 3, learners: 30, assignmentsPerBatch: 4 }
  : { batches: 100, learners: 2_000, assignmentsPerBatch: 50 };
/** Learners signed up over HTTP, whose sessions read their home in turn. */
const readers = smoke ? 3 : 20;
const targets: Record<string, number> = { queue: 100, home: 50, matrix: 150 };
const postgresUrl = process.env.TEST_DATABASE_URL;
/** Server processes, as `npm start` runs them: one per core unless WEB_CONCURRENCY says otherwise. */
const processes = process.env.WEB_CONCURRENCY || String(os.availableParallelism());

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

/** A database of its own on the PostgreSQL server, emptied first. */
async function freshPostgres(url: string): Promise<string> {
  // BENCH_DATABASE_SUFFIX keeps one person's bench databases apart from another's on a shared server.
  const name = `upskill_bench_assignments${smoke ? "_smoke" : ""}${process.env.BENCH_DATABASE_SUFFIX ?? ""}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  return own.toString();
}

/**
 * `requests` GETs of `address(n)`, `concurrency` at a time, each with the next cookie in turn;
 * every answer must be a 200. Milliseconds per request, sorted.
 */
async function timed(
  server: ServerProcess,
  address: (n: number) => string,
  cookies: string[],
  count = requests,
): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < count; n = next++) {
      const started = performance.now();
      const response = await fetch(`${server.url}${address(n)}`, {
        headers: cookies.length ? { cookie: cookies[n % cookies.length]! } : {},
        redirect: "manual",
      });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${address(n)}: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return times.sort((a, b) => a - b);
}

async function measure(kind: string, databaseUrl?: string) {
  const profileDir = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE, kind.toLowerCase()) : null;
  const server = await startServerProcess(
    {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT: "100000",
      WEB_CONCURRENCY: processes,
      ...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    // A shared machine under load may take a while to start it.
    { keepLogs: false, readyWithinMs: 120_000 },
  );
  const handle = await openDatabase(
    databaseUrl ? { databaseUrl, dataDir: server.dataDir } : { dataDir: server.dataDir },
  );
  try {
    const trainer = await signUpOverHttp(server.url, {
      username: "Bench Trainer",
      email: "bench-trainer@example.com",
      password: "bench-password-1",
    });
    const learners: string[] = [];
    for (let i = 0; i < readers; i++) {
      learners.push(
        await signUpOverHttp(server.url, {
          username: `Bench Learner ${i}`,
          email: `bench-learner-${i}@example.com`,
          password: "bench-password-1",
        }),
      );
    }
    const db = handle.db;
    await db.updateTable("user").set({ role: "staff" }).where("email", "=", "bench-trainer@example.com").execute();
    const trainerId = (
      await db
        .selectFrom("user")
        .select("id")
        .where("email", "=", "bench-trainer@example.com")
        .executeTakeFirstOrThrow()
    ).id;
    const first = (
      await db.selectFrom("user").select("id").where("email", "like", "bench-learner-%").orderBy("email").execute()
    ).map((row) => row.id);
    const started = performance.now();
    const seeded = await seedLearningLoop(handle, size, { trainerId, trainerBatches: 5, first });
    // The planner's statistics, as a database that has lived with these rows would have them.
    await (handle.dialect === "postgres" ? sql`vacuum analyze` : sql`analyze`).execute(db);
    // SQLite's seeding holds this process's event loop (node:sqlite is synchronous) for longer
    // than the server keeps an idle connection: the sign-ups' connections, closed by the server
    // meanwhile, are let go before a request is sent on one of them.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    console.log(
      `\n${kind}: seeded ${Object.entries(seeded.rows)
        .map(([name, n]) => `${n.toLocaleString("en-IN")} ${name}`)
        .join(", ")} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const rows: { label: string; target?: keyof typeof targets; address: (n: number) => string; cookies: string[] }[] =
      [
        { label: "/healthz (reference)", address: () => "/healthz", cookies: [] },
        { label: "/ anonymous, cached (reference)", address: () => "/", cookies: [] },
        {
          label: "/staff/reviews (trainer: 5 batches)",
          target: "queue",
          address: (n) => `/staff/reviews?batch=mine&n=${n}`,
          cookies: [trainer],
        },
        {
          label: "/staff/reviews.data",
          target: "queue",
          address: (n) => `/staff/reviews.data?batch=mine&n=${n}`,
          cookies: [trainer],
        },
        {
          label: "/staff/reviews?batch=all",
          target: "queue",
          address: (n) => `/staff/reviews?batch=all&n=${n}`,
          cookies: [trainer],
        },
        {
          label: "/staff/reviews.data?batch=all",
          target: "queue",
          address: (n) => `/staff/reviews.data?batch=all&n=${n}`,
          cookies: [trainer],
        },
        {
          label: "/dashboard (learners in turn)",
          target: "home",
          address: (n) => `/dashboard?n=${n}`,
          cookies: learners,
        },
        { label: "/dashboard.data", target: "home", address: (n) => `/dashboard.data?n=${n}`, cookies: learners },
        {
          label: "/staff/assignments/:id (matrix)",
          target: "matrix",
          address: (n) => `/staff/assignments/${seeded.assignmentId}?n=${n}`,
          cookies: [trainer],
        },
        {
          label: "/staff/assignments/:id.data",
          target: "matrix",
          address: (n) => `/staff/assignments/${seeded.assignmentId}.data?n=${n}`,
          cookies: [trainer],
        },
      ];
    console.log(
      `${requests} requests a row, ${concurrency} at a time; ${processes} server process(es) (WEB_CONCURRENCY)`,
    );
    console.log(`${"".padEnd(40)}${"p50".padStart(10)}${"p95".padStart(10)}${"target".padStart(10)}   load average`);
    const missed: string[] = [];
    for (const row of rows.filter((candidate) => candidate.label.includes(values.only))) {
      await timed(server, (n) => row.address(-1 - n), row.cookies, Math.min(requests, 8)); // warm-up: statements, JIT
      const times = await timed(server, row.address, row.cookies);
      const p95 = percentile(times, 95);
      const target = row.target ? targets[row.target]! : null;
      if (target !== null && p95 >= target) missed.push(row.label);
      console.log(
        `${row.label.padEnd(40)}${`${percentile(times, 50).toFixed(1)} ms`.padStart(10)}${`${p95.toFixed(1)} ms`.padStart(10)}` +
          `${target === null ? "".padStart(10) : `< ${target} ms`.padStart(10)}   ${load()}`,
      );
    }
    if (missed.length > 0) console.log(`Over target (${kind}): ${missed.join(", ")}`);
  } finally {
    await handle.close();
    await server.stop();
    if (!databaseUrl) fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

await measure("SQLite");
if (postgresUrl) await measure("PostgreSQL", await freshPostgres(postgresUrl));
else console.log("\nPostgreSQL skipped: set TEST_DATABASE_URL to measure it too.");
