// The signed-in pages under load, beside the anonymous landing page of the same run: the
// learner dashboard and the staff workspace (20 learners listed), each as a page and as the
// loader data React Router reads on navigation and live updates. Learner rows rotate through
// many learners' sessions. SQLite always; PostgreSQL too when TEST_DATABASE_URL is set.
// Run: npm run bench:signed-in   (needs a build: npm run build, and wrk; BENCH_SMOKE=1 for a
// seconds-long check; BENCH_SECONDS to vary). Absolute numbers on a shared 2-core machine are
// noisy: compare the ratios within one run.
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { signUpOverHttp, startServerProcess, type ServerProcess } from "../tests/support/server-process.ts";
import { have, wrk } from "./wrk.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 10));
const learnerCount = smoke ? 3 : 40;
const connectionCounts = smoke ? [10] : [10, 50];
const postgresUrl = process.env.TEST_DATABASE_URL;

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

    console.log(`\n${kind}: wrk, 1 thread, ${seconds} s per row; ${learnerCount} learners' sessions in turn`);
    console.log(
      `${"".padEnd(28)}${"conns".padStart(6)}${"req/s".padStart(10)}${"p50".padStart(12)}${"p99".padStart(12)}${"of /".padStart(8)}`,
    );
    const landing = new Map<number, number>();
    for (const row of rows) {
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
  } finally {
    await server.stop();
  }
}

console.log(
  "Targets: each kept page >= 1,500 req/s at 10 connections and p99 <= 20 ms at 50; loader data >= 3,000 req/s;\n" +
    "signed-in pages >= 10 % of the landing page's req/s.",
);
await measure("SQLite");
if (postgresUrl) await measure("PostgreSQL", await freshPostgres(postgresUrl));
else console.log("\nPostgreSQL skipped: set TEST_DATABASE_URL to measure it too.");
