// The staff workspace's search-and-filter request on 100,000 learners, SQLite and PostgreSQL
// side by side (PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set):
//   npm run bench:admin-search [-- --learners 100000 --requests 300 --fresh]
// Each request runs the staff workspace's real loader: session and role check, count, page,
// cards and courses. The seeded databases are kept (.tmp/bench-admin-search/ and the PostgreSQL database
// upskill_bench_admin_search) and reused by later runs; --fresh seeds them again.
// BENCH_SMOKE=1: a seconds-long check on 300 learners, seeded afresh into databases of its own.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import "../scripts/app-module-hooks.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const { values } = parseArgs({
  options: {
    learners: { type: "string", default: smoke ? "300" : "100000" },
    requests: { type: "string", default: smoke ? "30" : "300" },
    fresh: { type: "boolean", default: smoke },
  },
});
const learners = Number(values.learners);
const requests = Number(values.requests);

const { loadConfig } = await import("~/config/config.server");
const { openDatabase } = await import("~/db/database.server");
const { migrateToLatest } = await import("~/db/migrate.server");
const { createLogger } = await import("~/logging/logger.server");
const { InProcessBus } = await import("~/realtime/bus.server");
const { loadStaffWorkspace } = await import("~/staff/staff-page.server");
const { buildServices, provideServices } = await import("~/platform/services.server");
const { seedLearners } = await import("~/staff/seed.server");
const { isLearner } = await import("~/learners/learner-filter.server");
const { learnerCourses } = await import("~/staff/search.server");
const { signUpCourses } = await import("~/content/site-content");

type Handle = Awaited<ReturnType<typeof openDatabase>>;

const appUrl = "http://127.0.0.1:3999";
// A smoke run must not replace the kept 100,000 learners with a few hundred.
const workDir = path.resolve(
  import.meta.dirname,
  "..",
  ".tmp",
  smoke ? "bench-admin-search-smoke" : "bench-admin-search",
);
const benchDatabase = smoke ? "upskill_bench_admin_search_smoke" : "upskill_bench_admin_search";

async function open(kind: "sqlite" | "postgres", url?: string): Promise<Handle> {
  if (kind === "sqlite") {
    if (values.fresh) fs.rmSync(workDir, { recursive: true, force: true });
    return openDatabase({ dataDir: workDir });
  }
  // A database of its own, not a schema in the given one: Kysely's migrator looks for its tables
  // in every schema, so a second migrated schema would confuse tests sharing that database.
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (values.fresh) await client.query(`DROP DATABASE IF EXISTS ${benchDatabase}`);
    const exists = await client.query("select 1 from pg_database where datname = $1", [benchDatabase]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${benchDatabase}`);
  } finally {
    await client.end();
  }
  const benchUrl = new URL(url!);
  benchUrl.pathname = `/${benchDatabase}`;
  return openDatabase({ databaseUrl: benchUrl.toString(), dataDir: workDir });
}

/** Seeds up to the wanted number of learners (a kept database is reused as it is). */
async function prepare(handle: Handle): Promise<number> {
  await migrateToLatest(handle.db);
  const row = await handle.db
    .selectFrom("user")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where(isLearner)
    .executeTakeFirstOrThrow();
  const have = Number(row.n);
  if (have < learners) {
    const started = performance.now();
    await seedLearners(handle.db, { learners: learners - have });
    console.log(`  seeded ${learners - have} learners in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // As autovacuum would after a bulk load: statistics for the planner, the visibility map.
  if (handle.dialect === "postgres") await sql`vacuum analyze`.execute(handle.db);
  return Math.max(have, learners);
}

/** The app's services on this database, with an admin signed in: the cookie the requests carry. */
async function adminSession(handle: Handle) {
  const config = loadConfig({ APP_URL: appUrl, DATA_DIR: workDir, AUTH_RATE_LIMIT: "1000" });
  const logger = createLogger("silent");
  const services = await buildServices({ config, logger, database: handle, bus: new InProcessBus() });
  provideServices(services);
  const email = `bench-admin-${Date.now()}@example.in`;
  const response = await services.auth.handler(
    new Request(`${appUrl}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl, "x-upskill-client-ip": "192.0.2.1" },
      body: JSON.stringify({
        username: "Bench Admin",
        phone: "9876543210",
        course: "Python",
        gender: "female",
        email,
        password: "bench-admin-password-1",
        confirmPassword: "bench-admin-password-1",
      }),
    }),
  );
  if (response.status !== 200) throw new Error(`admin sign-up failed: ${response.status} ${await response.text()}`);
  await handle.db.updateTable("user").set({ role: "admin" }).where("email", "=", email).execute();
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { services, cookie };
}

/** The mix a staff member makes: a name, email or phone fragment, a course, both or neither; pages 1 to 3. */
function queries(count: number): string[] {
  const fragments = [
    "pa",
    "ti",
    "sh",
    "an",
    "priya",
    "rao",
    "kul",
    "ash",
    "z",
    "deshmukh",
    "a_",
    "100%",
    "98765",
    "+91 9",
    "@example.in",
    "rao.2",
  ];
  const list: string[] = [];
  for (let i = 0; i < count; i++) {
    const params = new URLSearchParams();
    if (i % 4 === 1 || i % 4 === 3) params.set("q", fragments[i % fragments.length]!);
    if (i % 4 === 2 || i % 4 === 3) params.set("course", signUpCourses[i % signUpCourses.length]!);
    params.set("page", String((i % 3) + 1));
    list.push(params.toString());
  }
  return list;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(kind: "sqlite" | "postgres", url?: string) {
  console.log(`${kind}:`);
  const handle = await open(kind, url);
  const total = await prepare(handle);
  const { services, cookie } = await adminSession(handle);
  try {
    // The staff workspace's loader, as a page request runs it (session, search, courses).
    const run = async (query: string) => {
      const started = performance.now();
      const data = await loadStaffWorkspace(new Request(`${appUrl}/staff?${query}`, { headers: { cookie } }));
      if (!Array.isArray(data.results.learners)) throw new Error("no learners in the answer");
      return performance.now() - started;
    };
    for (const query of queries(30)) await run(query);
    const times: number[] = [];
    for (const query of queries(requests)) times.push(await run(query));
    times.sort((a, b) => a - b);
    const courses = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await learnerCourses(handle.db);
      courses.push(performance.now() - started);
    }
    courses.sort((a, b) => a - b);
    return {
      learners: total,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      max: times.at(-1)!,
      coursesP95: percentile(courses, 95),
    };
  } finally {
    await services.close();
  }
}

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
results.SQLite = await measure("sqlite");
if (postgresUrl) results.PostgreSQL = await measure("postgres", postgresUrl);
else console.log("PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to measure it too.");

const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(10);
console.log(`\nGET /staff (the loader: session, search and filter, courses), ${requests} requests, ms per request`);
console.log(
  `${"".padEnd(12)}${"learners".padStart(10)}${"p50".padStart(10)}${"p95".padStart(10)}${"max".padStart(10)}${"courses p95".padStart(14)}`,
);
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(12)}${String(r.learners).padStart(10)}${ms(r.p50)}${ms(r.p95)}${ms(r.max)}${ms(r.coursesP95).padStart(14)}`,
  );
}
if (smoke) console.log("\nSmoke size: these figures say only that the bench runs.");
else {
  for (const [name, r] of Object.entries(results)) {
    console.log(`Target: ${name} p95 under 50 ms: ${r.p95 < 50 ? "met" : "NOT met"} (${r.p95.toFixed(1)} ms).`);
  }
}
process.exit(0);
