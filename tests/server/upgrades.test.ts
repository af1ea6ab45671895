import { afterEach, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Db } from "~/db/database.server";
import { migrateToLatest, MigrationError } from "~/db/migrate.server";
import { migrations } from "~/db/migrations";
import { describeEachDatabase } from "../support/databases";
import {
  fixtureCounts,
  fixtureLearner,
  lastFixtureMigration,
  openUpgradeFixture,
  type FixtureHandle,
} from "../support/upgrade-fixtures";

// A database made by the schema of migration 0009 (tests/fixtures/upskill-0009.*) is what an
// older Upskill leaves behind; starting this one migrates it forward, and a migration that
// fails leaves it exactly as it was.

/** Every table, column and index, and every row: what must not change when a migration fails. */
async function everything(db: Db, dialect: "sqlite" | "postgres") {
  const rows = async (text: string) => (await sql.raw<Record<string, unknown>>(text).execute(db)).rows;
  const schema =
    dialect === "sqlite"
      ? await rows(`select type, name, sql from sqlite_schema order by name`)
      : [
          ...(await rows(
            `select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema() order by 1, 2`,
          )),
          ...(await rows(`select indexname, indexdef from pg_indexes where schemaname = current_schema() order by 1`)),
        ];
  const tables = await tableNames(db, dialect);
  const data: Record<string, unknown[]> = {};
  for (const table of tables) data[table] = await rows(`select * from "${table}" order by 1`);
  return { schema, data };
}

async function tableNames(db: Db, dialect: "sqlite" | "postgres"): Promise<string[]> {
  const query =
    dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_schema where type = 'table' and name not like 'sqlite_%'`
      : sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema()`;
  return (await query.execute(db)).rows.map((row) => row.name).sort();
}

const released = Object.keys(migrations).sort();
const newer = released.filter((name) => name > lastFixtureMigration);

describeEachDatabase("upgrades from a database of migration 0009", (database) => {
  let fixture: FixtureHandle | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it("migrate forward on start: every row kept, the newer tables made", async () => {
    fixture = await openUpgradeFixture(database.dialect);
    const db = fixture.db;
    const before = await tableNames(db, database.dialect);
    expect(before).not.toContain("document");

    const result = await migrateToLatest(db);
    expect(result.results?.map((r) => [r.migrationName, r.status])).toEqual(newer.map((name) => [name, "Success"]));

    const after = await tableNames(db, database.dialect);
    for (const table of ["document", "document_job", "document_settings", "signing_key", "learner_import"]) {
      expect(after).toContain(table);
    }
    expect(after).toEqual(expect.arrayContaining(before));
    for (const [table, count] of Object.entries(fixtureCounts)) {
      const [row] = (await sql.raw<{ n: number | string }>(`select count(*) as n from "${table}"`).execute(db)).rows;
      expect(Number(row!.n), table).toBe(count);
    }
    const learner = await db
      .selectFrom("user")
      .select(["email", "username", "course", "role"])
      .where("id", "=", fixtureLearner.id)
      .executeTakeFirstOrThrow();
    expect(learner).toEqual({
      email: fixtureLearner.email,
      username: fixtureLearner.username,
      course: "Python",
      role: null,
    });
    const links = await db.selectFrom("task_link").select("link").where("learnerId", "=", fixtureLearner.id).execute();
    expect(links.map((l) => l.link).sort()).toEqual([
      "https://github.com/ashapatil/python-day1",
      "https://github.com/ashapatil/python-day2",
    ]);
    const resume = await db.selectFrom("resume").selectAll().executeTakeFirstOrThrow();
    expect(resume.fileName).toBe("Asha Patil CV.pdf");
    // A column a newer migration added reads as its default on the old rows.
    const offer = await db.selectFrom("offer_letter").select(["readAt"]).executeTakeFirstOrThrow();
    expect(offer.readAt).toBeNull();
    const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(recorded.rows.map((r) => r.name)).toEqual(released);
  });

  it("a failed migration leaves schema and data as they were, and the error names it", async () => {
    fixture = await openUpgradeFixture(database.dialect);
    const db = fixture.db;
    const before = await everything(db, database.dialect);
    // After the released ones (which succeed first, in the same run): it changes the schema and
    // the data, then fails.
    const failing: Migration = {
      async up(trx: Kysely<unknown>) {
        await trx.schema.createTable("half_done").addColumn("id", "text").execute();
        await sql`delete from task_link`.execute(trx);
        await sql`select * from no_such_table`.execute(trx);
      },
    };
    const error = await migrateToLatest(db, { ...migrations, "9999_fails_midway": failing }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migration).toBe("9999_fails_midway");
    expect((error as Error).message).toMatch(
      /^Database migration 9999_fails_midway failed: .*no_such_table.*The database was left as it was/,
    );
    expect(await everything(db, database.dialect)).toEqual(before);

    // Nothing is left half done: the released migrations then run as they would have.
    const retry = await migrateToLatest(db);
    expect(retry.results?.map((r) => r.migrationName)).toEqual(newer);
  });
});
