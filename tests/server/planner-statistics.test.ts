import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness } from "../support/test-app";

// SQLite plans the staff lists well only with its planner's statistics (decision 025): the
// services gather them when they start, not only at the first sweep ten minutes later, so a
// database filled while the server was stopped (a seed, a restore) is read with good plans at once.
describeEachDatabase("the query planner's statistics", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness | undefined;

  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(async () => {
    await h?.dispose();
    await handle.dispose();
  });

  const onSqlite = database.dialect === "sqlite";
  (onSqlite ? it : it.skip)(
    onSqlite
      ? "are gathered for a database never analyzed when the services start"
      : "statistics at start: skipped, since PostgreSQL's autovacuum keeps its own",
    async () => {
      for (let i = 0; i < 30; i++) await insertUser(handle.db, { name: `Learner ${i}`, email: `l${i}@example.com` });
      const analyzed = () =>
        sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(handle.db);
      expect((await analyzed()).rows[0]!.n).toBe(0);
      h = await createHarness(handle);
      const stats = await sql<{ tbl: string }>`select tbl from sqlite_stat1`.execute(handle.db);
      expect(stats.rows.map((row) => row.tbl)).toContain("user");
    },
  );
});
