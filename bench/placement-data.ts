// The seeded databases the placement benches share: npm run seed's learners and placement
// records (40 batches, ~30 % enrolled) up to a wanted size, on SQLite or in a PostgreSQL
// database of the bench's own (a second migrated schema would confuse tests). Kept between
// runs unless `fresh`.
import fs from "node:fs";
import { sql } from "kysely";
import pg from "pg";
import "../scripts/app-module-hooks.ts";

const { openDatabase } = await import("~/db/database.server");
const { migrateToLatest } = await import("~/db/migrate.server");
const { seedLearners } = await import("~/staff/seed.server");
const { seedPlacement } = await import("~/placement/seed.server");
const { isLearner } = await import("~/learners/learner-filter.server");

export type BenchHandle = Awaited<ReturnType<typeof openDatabase>>;

/** Opens the bench's database: SQLite in `dir`, or PostgreSQL database `name` beside `url`'s. */
export async function openBenchDatabase(
  kind: "sqlite" | "postgres",
  options: { dir: string; name: string; fresh: boolean; url?: string },
): Promise<{ handle: BenchHandle; databaseUrl?: string }> {
  if (kind === "sqlite") {
    if (options.fresh) fs.rmSync(options.dir, { recursive: true, force: true });
    return { handle: await openDatabase({ dataDir: options.dir }) };
  }
  // BENCH_DATABASE_SUFFIX keeps one person's bench databases apart from another's on a shared server.
  const name = `${options.name}${process.env.BENCH_DATABASE_SUFFIX ?? ""}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    if (options.fresh) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const benchUrl = new URL(options.url!);
  benchUrl.pathname = `/${name}`;
  const databaseUrl = benchUrl.toString();
  return { handle: await openDatabase({ databaseUrl, dataDir: options.dir }), databaseUrl };
}

/** Seeds up to the wanted number of learners, then placement records once. */
export async function seedPlacementData(handle: BenchHandle, learners: number) {
  await migrateToLatest(handle.db);
  const count = async () =>
    Number(
      (
        await handle.db
          .selectFrom("user")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where(isLearner)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const have = await count();
  if (have < learners) {
    const started = performance.now();
    await seedLearners(handle.db, { learners: learners - have });
    console.log(`  seeded ${learners - have} learners in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const batches = await handle.db.selectFrom("batch").select("id").limit(1).execute();
  if (batches.length === 0) {
    const started = performance.now();
    const seeded = await seedPlacement(handle.db);
    console.log(
      `  seeded ${seeded.batches} batches, ${seeded.enrolments} enrolments, ${seeded.offers} offers, ` +
        `${seeded.instalments} instalments, ${seeded.payments} payments in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  if (handle.dialect === "postgres") await sql`vacuum analyze`.execute(handle.db);
  const enrolments = await handle.db
    .selectFrom("enrolment")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return { learners: await count(), enrolments: Number(enrolments.n) };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
