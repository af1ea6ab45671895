// The outcome report for all batches, the public outcomes and the receivables on 100,000
// learners with placement records (npm run seed's: 40 batches, ~30 % enrolled), SQLite and
// PostgreSQL side by side (PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set):
//   npm run bench:outcomes [-- --learners 100000 --runs 100 --fresh]
// First the server functions alone, then (when there is a build) GET /staff/outcomes and
// /staff/fees from the built server as an admin, the whole page. The seeded databases are kept
// (.tmp/bench-outcomes/ and the PostgreSQL database upskill_bench_outcomes); --fresh seeds again.
// BENCH_SMOKE=1: a seconds-long check on 300 learners, in databases of its own.
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import pg from "pg";
import "../scripts/app-module-hooks.ts";
import { serverEntry, signUpOverHttp, startServerProcess } from "../tests/support/server-process.ts";
import { openBenchDatabase, percentile, seedPlacementData } from "./placement-data.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const { values } = parseArgs({
  options: {
    learners: { type: "string", default: smoke ? "300" : "100000" },
    runs: { type: "string", default: smoke ? "5" : "100" },
    fresh: { type: "boolean", default: smoke },
  },
});
const learners = Number(values.learners);
const runs = Number(values.runs);

const { outcomeReport } = await import("~/placement/reports.server");
const { publicOutcomes } = await import("~/placement/public-outcomes.server");
const { todayIn } = await import("~/core/dates");
const { receivables } = await import("~/placement/receivables.server");

const workDir = path.resolve(import.meta.dirname, "..", ".tmp", smoke ? "bench-outcomes-smoke" : "bench-outcomes");
const benchDatabase = smoke ? "upskill_bench_outcomes_smoke" : "upskill_bench_outcomes";

async function timed(times: number, run: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(5, times); i++) await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** The pages from the built server, as an admin: session, loader and render. */
async function pages(kind: "sqlite" | "postgres", databaseUrl?: string) {
  if (!fs.existsSync(serverEntry)) return null;
  const server = await startServerProcess({
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    AUTH_RATE_LIMIT: "100000",
    DATA_DIR: workDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  try {
    const email = `bench-admin-${Date.now()}@example.com`;
    const cookie = await signUpOverHttp(server.url, { username: "Bench Admin", email, password: "bench-password-1" });
    if (kind === "postgres") {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`update "user" set role = 'admin' where email = $1`, [email]);
      await client.end();
    } else {
      const db = new DatabaseSync(path.join(workDir, "upskill.sqlite"));
      db.exec("PRAGMA busy_timeout = 5000");
      db.prepare(`update "user" set role = 'admin' where email = ?`).run(email);
      db.close();
    }
    const get = (address: string) => async () => {
      const response = await fetch(`${server.url}${address}`, { headers: { cookie } });
      const html = await response.text();
      if (response.status !== 200 || !html.includes("<table")) throw new Error(`${address}: ${response.status}`);
    };
    return { outcomesPage: await timed(runs, get("/staff/outcomes")), feesPage: await timed(runs, get("/staff/fees")) };
  } finally {
    await server.stop();
  }
}

async function measure(kind: "sqlite" | "postgres", url?: string) {
  console.log(`${kind}:`);
  const { handle, databaseUrl } = await openBenchDatabase(kind, {
    dir: workDir,
    name: benchDatabase,
    fresh: values.fresh,
    url,
  });
  let sizes;
  const today = todayIn("Asia/Kolkata");
  try {
    sizes = await seedPlacementData(handle, learners);
    const report = await timed(runs, () => outcomeReport(handle.db, today));
    const published = await timed(runs, () => publicOutcomes(handle.db, today));
    const owed = await timed(runs, () => receivables(handle.db, today));
    await handle.close();
    return { ...sizes, report, published, owed, pages: await pages(kind, databaseUrl) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
results.SQLite = await measure("sqlite");
if (postgresUrl) results.PostgreSQL = await measure("postgres", postgresUrl);
else console.log("PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to measure it too.");

const ms = (n: number | undefined) => (n === undefined ? "—" : `${n.toFixed(1)} ms`).padStart(11);
console.log(`\n${runs} runs each, p50 / p95 in ms`);
console.log(
  `${"".padEnd(12)}${"learners".padStart(9)}${"enrolled".padStart(9)}` +
    ["report", "public", "receivable", "page outc.", "page fees"]
      .map((h) => `${h} p50`.padStart(15) + "p95".padStart(11))
      .join(""),
);
for (const [name, r] of Object.entries(results)) {
  const cells = [r.report, r.published, r.owed, r.pages?.outcomesPage, r.pages?.feesPage]
    .map((t) => `${ms(t?.p50).padStart(15)}${ms(t?.p95)}`)
    .join("");
  console.log(`${name.padEnd(12)}${String(r.learners).padStart(9)}${String(r.enrolments).padStart(9)}${cells}`);
}
if (Object.values(results).some((r) => !r.pages)) console.log("The pages were not measured: npm run build first.");
if (smoke) console.log("\nSmoke size: these figures say only that the bench runs.");
else {
  for (const [name, r] of Object.entries(results)) {
    const p95 = r.pages?.outcomesPage.p95 ?? r.report.p95;
    console.log(
      `Target: ${name} outcome report for all batches under 200 ms p95: ${p95 < 200 ? "met" : "NOT met"} (${p95.toFixed(1)} ms${r.pages ? ", the whole page" : ", the report alone"}).`,
    );
  }
}
process.exit(0);
