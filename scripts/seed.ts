// Fills the configured database (DATABASE_URL, else SQLite in DATA_DIR) with realistic learners,
// then placement records for about 30 % of all learners (app/placement/seed.server.ts):
//   npm run seed -- --learners 100000 [--seed 42]
// or a small demo institute with an admin to sign in as (app/staff/demo-seed.server.ts):
//   npm run seed -- --demo
// Creates the tables first if the server has never run on this database.
import { parseArgs } from "node:util";
import "./app-module-hooks.ts";

const { values } = parseArgs({
  options: { learners: { type: "string", default: "1000" }, seed: { type: "string" }, demo: { type: "boolean" } },
  strict: true,
});
const learners = Number(values.learners);
if (!Number.isInteger(learners) || learners < 1 || learners > 10_000_000) {
  console.error(
    "Usage: npm run seed -- --demo, or npm run seed -- --learners <how many, 1 to 10000000> [--seed <number>]",
  );
  process.exit(2);
}

const { ConfigError, loadConfig } = await import("~/config/config.server");
const { databaseLocation, openDatabase } = await import("~/db/database.server");
const { migrateToLatest } = await import("~/db/migrate.server");
const { seedLearners } = await import("~/staff/seed.server");
const { seedPlacement } = await import("~/placement/seed.server");
const { seedDemo } = await import("~/staff/demo-seed.server");
const { sql } = await import("kysely");

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
  process.exit(2);
}

// Said first, so that a wrong DATA_DIR or DATABASE_URL shows before anything is written.
console.log(`Seeding the database at ${databaseLocation(config)}`);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, writer: "outside" });
const started = performance.now();
let exitCode = 0;
try {
  await migrateToLatest(database.db);
  if (values.demo) {
    const demo = await seedDemo(database.db);
    console.log(
      `Seeded a demo institute: ${demo.learners} learners, ${demo.placement.batches} batches with trainers, ` +
        `${demo.placement.enrolments} enrolments, ${demo.placement.offers} offers, ${demo.testimonials} testimonials.`,
    );
    console.log(`\nStart the server (npm start), open it, press "Log in" and sign in as its admin:`);
    console.log(`  email:    ${demo.adminEmail}\n  password: ${demo.adminPassword}`);
  } else {
    await seedMany(database.db);
  }
  // The planner's statistics for what was just loaded, as PostgreSQL's manual advises after a
  // bulk load: autovacuum would come to it later, or never where it is turned off. (The SQLite
  // server refreshes its own: refreshStatistics.)
  if (database.dialect === "postgres") await sql`analyze`.execute(database.db);
} catch (error) {
  console.error(`Seeding ${database.location} failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);

async function seedMany(db: typeof database.db) {
  let shown = 0;
  const result = await seedLearners(db, {
    learners,
    seed: values.seed === undefined ? undefined : Number(values.seed),
    onProgress(done) {
      if (done - shown >= 10_000 || done === learners) {
        shown = done;
        process.stdout.write(`  ${done} learners\n`);
      }
    },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Seeded ${result.learners} learners, ${result.taskLinks} task links and ${result.messages} messages ` +
      `into ${database.location} in ${seconds} s.`,
  );
  const placement = await seedPlacement(db, {
    seed: values.seed === undefined ? undefined : Number(values.seed),
  });
  console.log(
    `Placement: ${placement.batches} batches, ${placement.enrolments} enrolments, ${placement.offers} offers, ` +
      `${placement.instalments} instalments and ${placement.payments} payments ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s in all.`,
  );
}
