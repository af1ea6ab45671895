// The cached public pages while learners churn what they show: learners flip their consent to
// be named on /placement, one change every 100 ms in all, while visitors load / and /outcomes
// (two wrk processes, half the visitors each) and a probe asks /healthz every 20 ms, on npm run
// seed's learners with placement records, SQLite and PostgreSQL side by side (PostgreSQL when
// TEST_DATABASE_URL or DATABASE_URL is set):
//   npm run bench:churn [-- --learners 100000 --seconds 20 --visitors 20 --fresh]
// A learner may make 60 changes a minute, so the flips rotate over 12 placed learners (what one
// person with a few accounts can do). The flips stop a quarter of the way before the end; the
// bench then reads /outcomes every 50 ms until it names exactly the learners whose consent
// stands, and reports how long after the last change that was.
// Targets (full size): / p99 < 50 ms, /healthz p99 < 100 ms, the last change shown within 2 s.
// Needs a build (npm run build) and Debian's wrk. BENCH_SMOKE=1: seconds on 300 learners.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import "../scripts/app-module-hooks.ts";
import { insertBatch, insertEnrolment, insertOffer } from "../tests/support/placement-fixtures.ts";
import { signUpOverHttp, startServerProcess } from "../tests/support/server-process.ts";
import { openBenchDatabase, percentile, seedPlacementData } from "./placement-data.ts";
import { have, wrk } from "./wrk.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const { values } = parseArgs({
  options: {
    learners: { type: "string", default: smoke ? "300" : "100000" },
    seconds: { type: "string", default: smoke ? "4" : "20" },
    visitors: { type: "string", default: smoke ? "4" : "20" },
    fresh: { type: "boolean", default: smoke },
  },
});
const learners = Number(values.learners);
const seconds = Number(values.seconds);
const visitors = Number(values.visitors);
const flipEveryMs = 100;
const togglerCount = 12;
if (!have("wrk")) throw new Error("bench/churn.ts needs wrk: apt-get install -y wrk");

const workDir = path.resolve(import.meta.dirname, "..", ".tmp", smoke ? "bench-churn-smoke" : "bench-churn");
const benchDatabase = smoke ? "upskill_bench_churn_smoke" : "upskill_bench_churn";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

interface Toggler {
  name: string;
  cookie: string;
  consented: boolean;
}

/** Learners placed in a published batch (ended 200 days ago), so their consent names them. */
async function placedTogglers(
  baseUrl: string,
  db: Awaited<ReturnType<typeof openBenchDatabase>>["handle"]["db"],
): Promise<Toggler[]> {
  const tag = randomUUID().slice(0, 6);
  const batchId = await insertBatch(db, {
    name: `Churn bench ${tag}`,
    course: "Web Development",
    startDate: daysAgo(380),
    endDate: daysAgo(200),
    payment: "upfront",
    termsId: null,
  });
  const togglers: Toggler[] = [];
  for (let i = 0; i < togglerCount; i++) {
    // Fixed width, so that no name is the start of another.
    const name = `Churner${tag}x${String(i).padStart(2, "0")}`;
    const email = `churn-${tag}-${i}@example.com`;
    const cookie = await signUpOverHttp(baseUrl, { username: name, email, password: "churn-password-1" });
    const { id } = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await insertEnrolment(db, { batchId, learnerId: id, graduation: "graduated", seeking: true });
    await insertOffer(db, id, {
      stage: "joined",
      status: "verified",
      offerDate: daysAgo(180),
      joiningDate: daysAgo(170),
      ctcPaise: 400_000_00,
    });
    togglers.push({ name, cookie, consented: false });
  }
  return togglers;
}

/** One consent change as the page's form sends it. */
async function flip(baseUrl: string, toggler: Toggler): Promise<number> {
  const response = await fetch(`${baseUrl}/placement.data`, {
    method: "POST",
    headers: { origin: baseUrl, cookie: toggler.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: toggler.consented ? "withdraw-consent" : "give-consent" }),
  });
  await response.arrayBuffer();
  if (response.status === 200) toggler.consented = !toggler.consented;
  return response.status;
}

/** Whether /outcomes names exactly the togglers whose consent stands. */
async function showsConsent(baseUrl: string, togglers: Toggler[]): Promise<boolean> {
  const html = await (await fetch(`${baseUrl}/outcomes`)).text();
  return togglers.every((toggler) => html.includes(toggler.name) === toggler.consented);
}

async function waitUntil(check: () => Promise<boolean>, withinMs: number): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < withinMs) {
    if (await check()) return performance.now() - started;
    await sleep(50);
  }
  return null;
}

async function measure(kind: "sqlite" | "postgres", url?: string) {
  console.log(`${kind}:`);
  const { handle, databaseUrl } = await openBenchDatabase(kind, {
    dir: workDir,
    name: benchDatabase,
    fresh: values.fresh,
    url,
  });
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    const sizes = await seedPlacementData(handle, learners);
    const start = () =>
      startServerProcess(
        {
          NODE_ENV: "production",
          LOG_LEVEL: "warn",
          AUTH_RATE_LIMIT: "100000",
          DATA_DIR: workDir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
        { keepLogs: false, readyWithinMs: 120_000 },
      );
    server = await start();
    const togglers = await placedTogglers(server.url, handle.db);
    // Their placement records were written past the server (as a seed or restore is): a server
    // started now reads them, as the pages' visitors would after the next change made in the app.
    await server.stop();
    server = await start();
    const base = server.url;
    // The page must name a consenting toggler at all, or the convergence below means nothing.
    if ((await flip(base, togglers[0]!)) !== 200) throw new Error("a consent change was refused");
    // The first render after a start reads every batch: on a busy machine it takes seconds.
    const firstShownMs = await waitUntil(() => showsConsent(base, togglers), 60_000);
    if (firstShownMs === null) throw new Error("/outcomes never named the consenting learner");
    console.log(`  /outcomes first named a consenting learner after ${firstShownMs.toFixed(0)} ms`);
    await flip(base, togglers[0]!);
    await waitUntil(() => showsConsent(base, togglers), 10_000);

    const load = (address: string) =>
      wrk(`${base}${address}`, {
        connections: Math.max(1, visitors / 2),
        seconds,
        headers: { "accept-encoding": "gzip" },
      });
    const started = performance.now();
    const loads = Promise.all([load("/"), load("/outcomes")]);

    const health: number[] = [];
    let loading = true;
    const probe = (async () => {
      while (loading) {
        const at = performance.now();
        const response = await fetch(`${base}/healthz`);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`/healthz: ${response.status}`);
        health.push(performance.now() - at);
        await sleep(20);
      }
    })();

    const flipUntil = started + seconds * 1000 * 0.75;
    const statuses: Record<number, number> = {};
    let turn = 0;
    while (performance.now() < flipUntil) {
      const next = performance.now() + flipEveryMs;
      const status = await flip(base, togglers[turn++ % togglers.length]!);
      statuses[status] = (statuses[status] ?? 0) + 1;
      await sleep(Math.max(0, next - performance.now()));
    }
    const shownAfterMs = await waitUntil(() => showsConsent(base, togglers), 10_000);
    const [home, outcomes] = await loads;
    loading = false;
    await probe;
    health.sort((a, b) => a - b);
    return {
      ...sizes,
      home,
      outcomes,
      health: { p50: percentile(health, 50), p99: percentile(health, 99), max: health.at(-1)! },
      statuses,
      shownAfterMs,
    };
  } finally {
    await server?.stop();
    await handle.close();
  }
}

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
results.SQLite = await measure("sqlite");
if (postgresUrl) results.PostgreSQL = await measure("postgres", postgresUrl);
else console.log("PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to measure it too.");

const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(10);
console.log(
  `\n${seconds} s, ${visitors} visitors (${visitors / 2} on / and ${visitors / 2} on /outcomes), ` +
    `a consent change every ${flipEveryMs} ms over ${togglerCount} learners for the first ${(seconds * 0.75).toFixed(1)} s`,
);
for (const [name, r] of Object.entries(results)) {
  const changes = Object.entries(r.statuses)
    .map(([status, n]) => `${n}× ${status}`)
    .join(", ");
  console.log(`${name} (${r.learners} learners, ${r.enrolments} enrolled):`);
  console.log(`  /          ${r.home.rps.toFixed(0).padStart(7)} req/s  p50 ${ms(r.home.p50)}  p99 ${ms(r.home.p99)}`);
  console.log(
    `  /outcomes  ${r.outcomes.rps.toFixed(0).padStart(7)} req/s  p50 ${ms(r.outcomes.p50)}  p99 ${ms(r.outcomes.p99)}`,
  );
  console.log(`  /healthz   p50 ${ms(r.health.p50)}  p99 ${ms(r.health.p99)}  max ${ms(r.health.max)}`);
  console.log(`  consent changes: ${changes}`);
  console.log(
    `  last change shown on /outcomes after ${r.shownAfterMs === null ? "more than 10 s" : `${r.shownAfterMs.toFixed(0)} ms`}`,
  );
}
if (smoke) console.log("\nSmoke size: these figures say only that the bench runs.");
else {
  for (const [name, r] of Object.entries(results)) {
    const met = (ok: boolean) => (ok ? "met" : "NOT met");
    console.log(
      `Targets ${name}: / p99 < 50 ms ${met(r.home.p99 < 50)}; /healthz p99 < 100 ms ${met(r.health.p99 < 100)}; ` +
        `shown within 2 s ${met(r.shownAfterMs !== null && r.shownAfterMs < 2000)}.`,
    );
  }
}
process.exit(0);
