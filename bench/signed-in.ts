// The signed-in pages under load, beside the anonymous landing page of the same run: the
// learner dashboard and the staff workspace (20 learners listed), each as a page and as the
// loader data React Router reads on navigation and live updates. Learner rows rotate through
// many learners' sessions. Then the working day (bench/working-day.ts): the same pages while
// 0.5, 2 or 10 % of the requests write, with 2,000 seeded learners besides those signed in.
// The server runs as `npm start` does (WEB_CONCURRENCY: one process per core unless set).
// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set.
// Run: npm run bench:signed-in   (needs a build: npm run build, and wrk; BENCH_SMOKE=1 for a
// seconds-long check; BENCH_SECONDS to vary; `-- --working-day` for the landing page and the
// working-day rows alone, `-- --row "HTML" --rounds 5` for the working-day rows whose label
// holds that text, each measured five times on one server, `-- --database postgres` for one
// database, `-- --gzip` for working-day reads that ask for compressed pages as browsers do).
// Absolute numbers on a shared 2-core machine are noisy: compare the ratios within
// one run.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import http from "node:http";
import os from "node:os";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { signUpOverHttp, startServerProcess, type ServerProcess } from "../tests/support/server-process.ts";
import { nginxServing } from "./nginx-reference.ts";
import { have, wrk } from "./wrk.ts";
import { workingDayRows, workingDayScript } from "./working-day.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 10));
const learnerCount = smoke ? 3 : 40;
// Enough sessions that writes rotating over them stay within each learner's 60 changes a minute.
const writerCount = smoke ? 60 : 400;
const readerCount = smoke ? 12 : 200;
const seededLearners = smoke ? 100 : 2000;
const connectionCounts = smoke ? [10] : [10, 50];
const postgresUrl = process.env.TEST_DATABASE_URL;
/** Server processes, as `npm start` runs them: one per core unless WEB_CONCURRENCY says otherwise. */
const processes = process.env.WEB_CONCURRENCY || String(os.availableParallelism());
const { values: options } = parseArgs({
  options: {
    "working-day": { type: "boolean", default: false },
    // The working-day reads ask for compressed pages, as browsers do (without: uncompressed, as before).
    gzip: { type: "boolean", default: false },
    database: { type: "string", default: "both" },
    // Working-day rows whose label contains this (implies --working-day), each measured `rounds` times.
    row: { type: "string", default: "" },
    rounds: { type: "string", default: "1" },
  },
});

const rounds = Number(options.rounds);
/** What the working-day reads send: Chromium's Accept-Encoding with --gzip, else nothing. */
const acceptEncoding: Record<string, string> = options.gzip ? { "Accept-Encoding": "gzip, deflate, br, zstd" } : {};
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds takes a whole number from 1: "${options.rounds}"`);
if (!have("wrk")) throw new Error("bench:signed-in needs wrk: apt-get install -y wrk");

async function signUp(server: ServerProcess, name: string): Promise<{ email: string; cookie: string }> {
  const email = `${name.toLowerCase().replaceAll(" ", "-")}@example.com`;
  return { email, cookie: await signUpOverHttp(server.url, { username: name, email, password: "bench-password-1" }) };
}

/** A database of its own on the PostgreSQL server, emptied first. */
async function freshPostgres(url: string): Promise<string> {
  const name = "upskill_bench_signed_in";
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  return own.toString();
}

async function makeAdmin(server: ServerProcess, email: string, databaseUrl?: string) {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`update "user" set role = 'admin' where email = $1`, [email]);
    await client.end();
  } else {
    const db = new DatabaseSync(`${server.dataDir}/upskill.sqlite`);
    db.exec("PRAGMA busy_timeout = 5000");
    db.prepare(`update "user" set role = 'admin' where email = ?`).run(email);
    db.close();
  }
}

async function measure(kind: string, databaseUrl?: string) {
  // As `npm start` runs it: production React, one log line per request (read and dropped here).
  const server = await startServerProcess(
    {
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      AUTH_RATE_LIMIT: "100000",
      WEB_CONCURRENCY: processes,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    { keepLogs: false },
  );
  try {
    const learners = [];
    for (let i = 0; i < learnerCount; i++) learners.push((await signUp(server, `Bench Learner ${i}`)).cookie);
    const staff = await signUp(server, "Bench Admin");
    await makeAdmin(server, staff.email, databaseUrl);
    // Kept rows: the database unchanged, as between two writes (answered from memory after the
    // first request). Rendered rows: every address new, so each request is read and rendered,
    // as after a write.
    const rows: { label: string; path: string; cookies?: string[]; fresh?: boolean }[] = [
      { label: "GET / (anonymous, cached)", path: "/" },
      { label: "GET /dashboard", path: "/dashboard", cookies: learners },
      { label: "GET /dashboard.data", path: "/dashboard.data", cookies: learners },
      { label: "GET /staff", path: "/staff", cookies: [staff.cookie] },
      { label: "GET /staff.data", path: "/staff.data", cookies: [staff.cookie] },
      { label: "GET /dashboard, rendered", path: "/dashboard", cookies: learners, fresh: true },
      { label: "GET /dashboard.data, rendered", path: "/dashboard.data", cookies: learners, fresh: true },
      { label: "GET /staff, rendered", path: "/staff", cookies: [staff.cookie], fresh: true },
      { label: "GET /staff.data, rendered", path: "/staff.data", cookies: [staff.cookie], fresh: true },
    ];
    for (const row of rows) {
      const response = await fetch(`${server.url}${row.path}`, {
        headers: row.cookies ? { cookie: row.cookies[0]! } : {},
        redirect: "manual",
      });
      if (response.status !== 200) throw new Error(`${row.path}: ${response.status} for its caller`);
      await response.arrayBuffer();
    }

    console.log(
      `\n${kind}: ${processes} server process(es) (WEB_CONCURRENCY); wrk, 1 thread, ${seconds} s per row; ` +
        `${learnerCount} learners' sessions in turn`,
    );
    console.log(
      `${"".padEnd(28)}${"conns".padStart(6)}${"req/s".padStart(10)}${"p50".padStart(12)}${"p99".padStart(12)}${"of /".padStart(8)}`,
    );
    const landing = new Map<number, number>();
    const workingDayOnly = options["working-day"] || options.row !== "";
    for (const row of smoke ? rows.slice(0, 2) : workingDayOnly ? rows.slice(0, 1) : rows) {
      const options = { cookies: row.cookies, fresh: row.fresh };
      await wrk(`${server.url}${row.path}`, { connections: 8, seconds: 1, ...options }); // warm-up
      for (const connections of connectionCounts) {
        const f = await wrk(`${server.url}${row.path}`, { connections, seconds, ...options });
        if (row.path === "/") landing.set(connections, f.rps);
        const share = `${((100 * f.rps) / (landing.get(connections) ?? f.rps)).toFixed(1)}%`;
        console.log(
          `${row.label.padEnd(28)}${String(connections).padStart(6)}${f.rps.toFixed(0).padStart(10)}` +
            `${`${f.p50.toFixed(2)} ms`.padStart(12)}${`${f.p99.toFixed(2)} ms`.padStart(12)}${share.padStart(8)}`,
        );
      }
    }
    await workingDay(
      server,
      { staff: staff.cookie, learners, landing: landing.get(50) ?? landing.get(10)! },
      databaseUrl,
    );
  } finally {
    await server.stop();
  }
}

/** The working-day rows at 50 connections (10 for smoke), with more learners, beside the landing page. */
async function workingDay(
  server: ServerProcess,
  people: { staff: string; learners: string[]; landing: number },
  databaseUrl?: string,
) {
  seed(server, databaseUrl);
  const writers = [...people.learners];
  for (let i = writers.length; i < writerCount; i += 8) {
    const batch = Array.from({ length: Math.min(8, writerCount - i) }, (_, j) =>
      signUp(server, `Bench Writer ${i + j}`),
    );
    for (const { cookie } of await Promise.all(batch)) writers.push(cookie);
  }
  const connections = smoke ? 10 : 50;
  console.log(
    `\nWorking day: ${connections} connections, ${seededLearners} seeded learners; ${readerCount} learners reading in turn, ` +
      `writes (saving email settings) rotating over ${writers.length}; load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
  );
  console.log(
    `${"".padEnd(36)}${"req/s".padStart(8)}${"p50".padStart(11)}${"p99".padStart(11)}${"of /".padStart(8)}${"p99/p50".padStart(8)}`,
  );
  const rows = workingDayRows(writers.slice(0, readerCount), people.staff).filter((row) =>
    row.label.includes(options.row),
  );
  if (rows.length === 0) throw new Error(`no working-day row's label contains "${options.row}"`);
  const print = (label: string, f: { rps: number; p50: number; p99: number }) =>
    console.log(
      `${label.padEnd(36)}${f.rps.toFixed(0).padStart(8)}${`${f.p50.toFixed(1)} ms`.padStart(11)}` +
        `${`${f.p99.toFixed(1)} ms`.padStart(11)}${`${((100 * f.rps) / people.landing).toFixed(1)}%`.padStart(8)}` +
        `${`${(f.p99 / f.p50).toFixed(1)}×`.padStart(8)}`,
    );
  // What this machine allows under the same load: nginx sending a learner's /dashboard as wrk
  // gets it, the p99/p50 of a server with no work of its own to vary.
  if (have("nginx")) {
    const page = await rawAnswer(`${server.url}/dashboard`, { cookie: writers[0]!, ...acceptEncoding });
    const nginx = await nginxServing(page.body, { workers: Number(processes), headers: page.encoding });
    try {
      await wrk(`${nginx.url}/`, { connections, seconds: 1 }); // warm-up
      print("nginx, the same page's bytes", await wrk(`${nginx.url}/`, { connections, seconds }));
    } finally {
      nginx.stop();
    }
  } else console.log("(nginx's row skipped: apt-get install -y nginx-light)");
  for (const row of rows) {
    const script = workingDayScript(row, writers, server.url, acceptEncoding);
    // Warm-up at full load: the first row follows the seeding and the writers' sign-ups, whose
    // first seconds can answer some requests after 2 s (said, not measured).
    const warmUp = await wrk(server.url, { connections, seconds: smoke ? 1 : 3, script, lateAllowed: true });
    if (warmUp.late > 0) console.log(`(warm-up: ${warmUp.late} requests answered after 2 s)`);
    for (let round = 0; round < rounds; round++) {
      print(row.label, await wrk(server.url, { connections, seconds, script }));
    }
  }
}

/** An answer's body as sent (compressed when asked: fetch would decode it) and its Content-Encoding. */
async function rawAnswer(url: string, headers: Record<string, string>) {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(url, { headers }, resolve).on("error", reject),
  );
  const body = Buffer.concat(await response.toArray());
  const encoding = response.headers["content-encoding"];
  const headersToSend: Record<string, string> = encoding ? { "Content-Encoding": encoding } : {};
  return { body, encoding: headersToSend };
}

/** Learners written in by `npm run seed` (another process, as an operator would run it). */
function seed(server: ServerProcess, databaseUrl?: string) {
  const result = spawnSync(process.execPath, ["scripts/seed.ts", "--learners", String(seededLearners)], {
    env: {
      ...process.env,
      APP_URL: server.url,
      DATA_DIR: server.dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`seeding failed: ${result.stderr}`);
}

console.log(
  "Working-day targets (2 % writing, 50 connections): learners' mix >= 2,500 req/s on SQLite, >= 2,000 on PostgreSQL,\n" +
    "p99 <= 50 ms (mix) and <= 100 ms (/dashboard HTML); staff pages >= 2,000 req/s.",
);
console.log(
  "Targets: each kept page >= 1,500 req/s at 10 connections and p99 <= 20 ms at 50; loader data >= 3,000 req/s;\n" +
    "signed-in pages >= 10 % of the landing page's req/s.",
);
if (options.database !== "postgres") await measure("SQLite");
if (options.database === "sqlite") console.log("\nPostgreSQL left out (--database sqlite).");
else if (postgresUrl) await measure("PostgreSQL", await freshPostgres(postgresUrl));
else console.log("\nPostgreSQL skipped: set TEST_DATABASE_URL to measure it too.");
