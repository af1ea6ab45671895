import { afterEach, expect, it } from "vitest";
import { sql } from "kysely";
import { migrateToLatest } from "~/db/migrate.server";
import { migrations } from "~/db/migrations";
import { pingDatabase } from "~/db/database.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

describeEachDatabase("migrations", (database) => {
  let handle: TestDatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it("bring a fresh database to the latest schema and are idempotent", async () => {
    handle = await database.open({ migrate: false });
    expect(await pingDatabase(handle.db)).toBe(true);

    const first = await migrateToLatest(handle.db);
    const names = Object.keys(migrations).sort();
    expect(first.results?.map((r) => r.migrationName)).toEqual(names);
    expect(first.results?.every((r) => r.status === "Success")).toBe(true);

    const second = await migrateToLatest(handle.db);
    expect(second.results).toEqual([]);

    // A second instance starting against the same database finds nothing to do.
    const other = await handle.reopen();
    try {
      expect((await migrateToLatest(other.db)).results).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("record what ran, so a restart keeps the data and the schema", async () => {
    handle = await database.open();
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
    expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
  });
});
