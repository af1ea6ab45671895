// The staff workspace's search, filters and sorts on 100,000 learners, SQLite and PostgreSQL
// side by side (PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set):
//   npm run bench:admin-search [-- --learners 100000 --requests 300 --fresh --name NAME]
// Each request runs the staff workspace's real loader: session and role check, count, page,
// table rows and courses: every filter alone, every sort both ways, and a mix. Then the table's
// HTML from the built server (npm run build first) on the same database, and a send and an
// enrolment to 500 ticked learners. The seeded databases are kept (.tmp/bench-admin-search/ and the PostgreSQL database
// upskill_bench_admin_search, or .tmp/NAME/ and the database NAME with --name) and reused by later
// runs; --fresh seeds them again.
// BENCH_SMOKE=1: a seconds-long check on 300 learners, seeded afresh into databases of its own.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
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
    // Whose databases: several people measuring on one machine each keep their own.
    name: { type: "string" },
    // Seed (or migrate) the kept databases and stop: measure later, or read their plans.
    "seed-only": { type: "boolean", default: false },
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
const { seedPlacement } = await import("~/placement/seed.server");
const { sendToSelected } = await import("~/staff/staff-actions.server");
const { sortKeys } = await import("~/staff/workspace-query");
const { startServerProcess, signUpOverHttp } = await import("../tests/support/server-process.ts");
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
  values.name ?? (smoke ? "bench-admin-search-smoke" : "bench-admin-search"),
);
const benchDatabase =
  values.name?.replace(/[^a-z0-9]+/gi, "_").toLowerCase() ??
  (smoke ? "upskill_bench_admin_search_smoke" : "upskill_bench_admin_search");

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
    await seedTableData(handle);
    console.log(`  and batches, resumes, activity in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // As autovacuum would after a bulk load: statistics for the planner, the visibility map; on
  // SQLite, as the server's sweep does within ten minutes of a start.
  if (handle.dialect === "postgres") await sql`vacuum analyze`.execute(handle.db);
  else await handle.refreshStatistics?.();
  return Math.max(have, learners);
}

/**
 * What the table's filters read: batches and placement records for 30% of the learners, a
 * resume for about a third, a last-active time for about half (spread over the past year), and
 * ten assignments a batch, half of them past due, with the batch's learners' statuses spread.
 */
async function seedTableData(handle: Handle) {
  await seedPlacement(handle.db, { share: 0.3, batches: smoke ? 4 : 40 });
  await seedAssignments(handle);
  await sql`insert into resume ("learnerId", "storageKey", "fileName", "size", "contentType", "uploadedAt")
    select id, 'resumes/' || id || '.pdf', 'resume.pdf', 1000, 'application/pdf', "createdAt"
    from "user" where coalesce(role, '') = '' and substr(id, 1, 1) in ('0', '1', '2', '3', '4')`.execute(handle.db);
  await sql`update "user" set "lastActiveAt" = "createdAt"
    where coalesce(role, '') = '' and substr(id, 2, 1) in ('0', '1', '2', '3', '4', '5', '6', '7')`.execute(handle.db);
}

/**
 * Ten assignments a batch, due a week apart around now, and every learner of the batch given each
 * with a status that depends on the learner and the assignment. Written due ahead, then the
 * earlier half moved into the past: the triggers then count each assignment's learners at once
 * rather than row by row (as create-assignment and time would have left them).
 */
async function seedAssignments(handle: Handle) {
  const { db } = handle;
  const batches = await db.selectFrom("batch").select("id").orderBy("id").execute();
  const day = 86_400_000;
  const now = Date.now();
  const assignments = batches.flatMap((batch, b) =>
    Array.from({ length: 10 }, (_, i) => ({
      id: `${batch.id}-a${i}`,
      batchId: batch.id,
      title: `Assignment ${i + 1}`,
      instructions: "<p>Bench</p>",
      dueAt: new Date(now + (30 + i + (b % 7)) * day).toISOString(),
      handIn: "link" as const,
      points: null,
      createdBy: null,
      createdByName: "Bench",
      createdAt: new Date(now - 60 * day).toISOString(),
    })),
  );
  for (let i = 0; i < assignments.length; i += 500) {
    await db
      .insertInto("assignment")
      .values(assignments.slice(i, i + 500))
      .execute();
  }
  const at = new Date(now).toISOString();
  const code = sql.raw(handle.dialect === "sqlite" ? "unicode" : "ascii");
  await sql`insert into learner_assignment ("assignmentId", "learnerId", status, points, "submittedAt", "reviewedAt", "updatedAt")
    select a.id, e."learnerId",
      case (${code}(substr(e."learnerId", 3, 1)) * 3 + ${code}(substr(a.id, length(a.id), 1))) % 5
        when 0 then 'not-started' when 1 then 'submitted' when 2 then 'late' when 3 then 'changes-requested'
        else 'accepted' end,
      null, null, null, ${at}
    from assignment a join enrolment e on e."batchId" = a."batchId"
    on conflict do nothing`.execute(db);
  for (const [i, assignment] of assignments.entries()) {
    if (i % 10 >= 5) continue;
    await db
      .updateTable("assignment")
      .set({ dueAt: new Date(now - (10 - (i % 10)) * day).toISOString() })
      .where("id", "=", assignment.id)
      .execute();
  }
}

/** The app's services on this database, with an admin signed in: the cookie the requests carry. */
async function adminSession(handle: Handle) {
  const config = loadConfig({ APP_URL: appUrl, DATA_DIR: workDir, AUTH_RATE_LIMIT: "1000" });
  const logger = createLogger("silent");
  // No mail worker here: it would send the measured sends' emails on this process, inside the
  // measurements that follow (a server sends them beside its requests).
  const services = await buildServices({
    config,
    logger,
    database: handle,
    bus: new InProcessBus(),
    mailWorker: { start: false },
  });
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

/** A name, email or phone fragment, as staff type them. */
const fragments = ["pa", "ti", "priya", "rao", "z", "deshmukh", "a_", "98765", "+91 9", "@example.in"];

/** Each filter alone (with the default sort), named; `batch` is filled in once a batch is known. */
function filterCases(batchId: string, stage: string): [string, string][] {
  return [
    ["no filter", ""],
    ["search", "q=priya"],
    ["search email", "q=deshmukh."],
    ["search phone", "q=+91 98765"],
    ["course", `course=${encodeURIComponent(signUpCourses[0]!)}`],
    ["batch", `batch=${batchId}`],
    ["has no resume", "noResume=1"],
    ["has unread", "unread=1"],
    ["not active 30 days", "inactive=30"],
    ["placement stage", `stage=${stage}`],
    ["joined between", "from=2026-03-01&to=2026-04-30"],
    ["batch + no resume", `batch=${batchId}&noResume=1`],
    ["course + unread + inactive", `course=${encodeURIComponent(signUpCourses[1]!)}&unread=1&inactive=60`],
  ];
}

/** Every sort, both ways, with no filter and with the batch filter. */
function sortCases(batchId: string): [string, string][] {
  const cases: [string, string][] = [];
  for (const key of sortKeys) {
    for (const dir of ["asc", "desc"]) {
      cases.push([`sort ${key} ${dir}`, `sort=${key}&dir=${dir}`]);
      cases.push([`sort ${key} ${dir}, batch`, `sort=${key}&dir=${dir}&batch=${batchId}`]);
    }
  }
  return cases;
}

/** A mix: a fragment, a filter and a sort, pages 1 to 3. */
function mixed(count: number, cases: [string, string][]): string[] {
  const list: string[] = [];
  for (let i = 0; i < count; i++) {
    const params = new URLSearchParams(cases[i % cases.length]![1]);
    if (i % 3 === 1) params.set("q", fragments[i % fragments.length]!);
    params.set("page", String((i % 3) + 1));
    list.push(params.toString());
  }
  return list;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(kind: "sqlite" | "postgres", url?: string) {
  console.log(`${kind}: (load ${loadNow()})`);
  const handle = await open(kind, url);
  const total = await prepare(handle);
  if (values["seed-only"]) {
    await handle.close();
    return null;
  }
  const { services, cookie } = await adminSession(handle);
  try {
    // The staff workspace's loader, as a page request runs it (session, search, courses).
    const run = async (query: string) => {
      const started = performance.now();
      const data = await loadStaffWorkspace(new Request(`${appUrl}/staff?${query}`, { headers: { cookie } }));
      if (!Array.isArray(data.results.learners)) throw new Error("no learners in the answer");
      return performance.now() - started;
    };
    const batch = await handle.db
      .selectFrom("enrolment")
      .select((eb) => ["batchId", eb.fn.countAll<number | string>().as("n")])
      .groupBy("batchId")
      .orderBy("batchId")
      .executeTakeFirstOrThrow();
    const cases = [...filterCases(batch.batchId, "interview"), ...sortCases(batch.batchId)];
    for (const query of mixed(30, cases)) await run(query);
    const each = Math.max(5, Math.round(requests / 30));
    const perCase: { name: string; p95: number }[] = [];
    for (const [name, query] of cases) {
      const times: number[] = [];
      for (let i = 0; i < each; i++) times.push(await run(`${query}${query ? "&" : ""}page=${(i % 3) + 1}`));
      times.sort((a, b) => a - b);
      perCase.push({ name, p95: percentile(times, 95) });
    }
    const times: number[] = [];
    for (const query of mixed(requests, cases)) times.push(await run(query));
    times.sort((a, b) => a - b);
    const courses = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await learnerCourses(handle.db);
      courses.push(performance.now() - started);
    }
    courses.sort((a, b) => a - b);
    const bulk = await bulkTimes(handle, services);
    return {
      learners: total,
      batchSize: Number(batch.n),
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      max: times.at(-1)!,
      coursesP95: percentile(courses, 95),
      perCase,
      ...bulk,
      ...(await htmlTimes(handle, url, cases)),
    };
  } finally {
    await services.close();
  }
}

/** A send to 500 ticked learners, through the staff action's function (one transaction). */
async function bulkTimes(handle: Handle, services: Awaited<ReturnType<typeof adminSession>>["services"]) {
  const ids = (await handle.db.selectFrom("user").select("id").where(isLearner).orderBy("id").limit(500).execute()).map(
    (row) => row.id,
  );
  const admin = await handle.db.selectFrom("user").select("id").where("role", "=", "admin").executeTakeFirstOrThrow();
  const actor = { id: admin.id, name: "Bench Admin", role: "admin" };
  const deps = { db: handle.db, bus: services.bus };
  let started = performance.now();
  const sent = await sendToSelected(deps, actor, { learnerIds: ids, kind: "notice", html: "Bench notice" });
  const sendMs = performance.now() - started;
  if (!sent.ok) throw new Error(`send to 500: ${sent.message}`);
  // A batch of its own each run, so that all 500 are enrolled (not found already there).
  const { enrolLearners } = await import("~/batches/membership.server");
  const batchId = randomUUID();
  const template = await handle.db.selectFrom("batch").selectAll().orderBy("id").executeTakeFirstOrThrow();
  await handle.db
    .insertInto("batch")
    .values({ ...template, id: batchId, name: `Bench enrol ${new Date().toISOString()}` })
    .execute();
  started = performance.now();
  const enrolled = await enrolLearners(deps, batchId, ids, actor);
  const enrolMs = performance.now() - started;
  if (!enrolled.ok || enrolled.enrolled !== ids.length) throw new Error(`enrol 500: ${enrolled.message}`);
  // Gone again, so that a kept database stays as seeded from run to run.
  await handle.db.deleteFrom("batch").where("id", "=", batchId).execute();
  return { sendMs, enrolMs };
}

/**
 * The table's HTML as a browser gets it: the built server (production React) on this database,
 * an admin's session, each address new (so nothing is answered from memory).
 */
async function htmlTimes(handle: Handle, url: string | undefined, cases: [string, string][]) {
  const databaseUrl = handle.dialect === "postgres" ? new URL(url!) : null;
  if (databaseUrl) databaseUrl.pathname = `/${benchDatabase}`;
  const server = await startServerProcess(
    {
      NODE_ENV: "production",
      DATA_DIR: workDir,
      AUTH_RATE_LIMIT: "100000",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl.toString() } : {}),
    },
    { keepLogs: false, readyWithinMs: 120_000 },
  );
  try {
    const email = `bench-html-${Date.now()}@example.in`;
    const cookie = await signUpOverHttp(server.url, {
      username: "Bench Html",
      email,
      password: "bench-html-password-1",
    });
    await handle.db.updateTable("user").set({ role: "admin" }).where("email", "=", email).execute();
    const times: number[] = [];
    const list = mixed(Math.min(requests, 200) + 10, cases);
    for (const [i, query] of list.entries()) {
      const started = performance.now();
      const response = await fetch(`${server.url}/staff?${query}&r=${i}`, { headers: { cookie } });
      const html = await response.text();
      if (response.status !== 200 || !html.includes("Admin Dashboard"))
        throw new Error(`GET /staff: ${response.status}`);
      if (i >= 10) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { htmlP50: percentile(times, 50), htmlP95: percentile(times, 95) };
  } finally {
    await server.stop();
  }
}

/** The machine's load averages (1, 5, 15 minutes): figures on a shared machine mean little without them. */
function loadNow(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
}

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const results: Record<string, NonNullable<Awaited<ReturnType<typeof measure>>>> = {};
const sqlite = await measure("sqlite");
if (sqlite) results.SQLite = sqlite;
if (postgresUrl) {
  const postgres = await measure("postgres", postgresUrl);
  if (postgres) results.PostgreSQL = postgres;
} else console.log("PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to measure it too.");
if (values["seed-only"]) {
  console.log("Seeded; nothing measured (--seed-only).");
  process.exit(0);
}

const ms = (n: number | null) => (n === null ? "n/a".padStart(10) : `${n.toFixed(1)} ms`.padStart(10));
const names = Object.keys(results);
console.log(`\nLoad now (1/5/15 min): ${loadNow()} on ${os.availableParallelism()} cores`);
console.log(`\nGET /staff loader per case (p95, ms), ${names.join(" / ")}`);
for (const [i, one] of Object.values(results)[0]!.perCase.entries()) {
  console.log(
    `  ${one.name.padEnd(32)}${Object.values(results)
      .map((r) => ms(r.perCase[i]!.p95))
      .join("")}`,
  );
}
console.log(`\nMixed (fragment, filter, sort, pages 1-3), ${requests} requests`);
console.log(
  `${"".padEnd(12)}${"learners".padStart(10)}${"p50".padStart(10)}${"p95".padStart(10)}${"max".padStart(10)}${"courses p95".padStart(14)}${"HTML p95".padStart(10)}${"send 500".padStart(10)}${"enrol 500".padStart(10)}`,
);
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(12)}${String(r.learners).padStart(10)}${ms(r.p50)}${ms(r.p95)}${ms(r.max)}${ms(r.coursesP95).padStart(14)}${ms(r.htmlP95)}${ms(r.sendMs)}${ms(r.enrolMs)}`,
  );
}
if (smoke) console.log("\nSmoke size: these figures say only that the bench runs.");
else {
  for (const [name, r] of Object.entries(results)) {
    const worst = Math.max(...r.perCase.map((c) => c.p95));
    const slowest = r.perCase.find((c) => c.p95 === worst)!.name;
    console.log(
      `Target: ${name} every filter and sort p95 under 100 ms: ${worst < 100 ? "met" : "NOT met"} (worst ${worst.toFixed(1)} ms, ${slowest}).`,
    );
    console.log(
      `Target: ${name} table HTML p95 under 150 ms: ${r.htmlP95 < 150 ? "met" : "NOT met"} (${r.htmlP95.toFixed(1)} ms).`,
    );
    console.log(
      `Target: ${name} send to 500 under 2 s: ${r.sendMs < 2000 ? "met" : "NOT met"} (${r.sendMs.toFixed(0)} ms).`,
    );
    console.log(
      `Target: ${name} enrolment of 500 under 2 s: ${r.enrolMs < 2000 ? "met" : "NOT met"} (${r.enrolMs.toFixed(0)} ms).`,
    );
  }
}
process.exit(0);
