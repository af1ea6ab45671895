// Every bench at smoke size (BENCH_SMOKE=1: tiny numbers, seconds each), so CI notices a bench
// that no longer runs. Figures at this size mean nothing; a bench that throws fails the run.
// Run: npm run bench:smoke   (needs a build, and PostgreSQL for the events bench)
import { spawnSync } from "node:child_process";
import path from "node:path";

const benches = [
  "landing.ts",
  "admin-search.ts",
  "events.ts",
  "signed-in.ts",
  "documents.ts",
  "csv-import.ts",
  "outcomes.ts",
  "churn.ts",
  "reports.ts",
  "assignments.ts",
];
const failed: string[] = [];
for (const bench of benches) {
  const started = performance.now();
  console.log(`\n== bench/${bench} (smoke)`);
  const result = spawnSync(process.execPath, [path.join(import.meta.dirname, bench)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_SMOKE: "1" },
    timeout: 120_000,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    console.log(`== bench/${bench}: ran in ${seconds} s`);
  } else {
    const why = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
    console.log(`== bench/${bench}: FAILED after ${seconds} s (${why})`);
    failed.push(bench);
  }
}
if (failed.length > 0) {
  console.error(`\nBench smoke failed: ${failed.join(", ")}`);
  process.exit(1);
}
console.log(`\nBench smoke: all ${benches.length} benches ran.`);
