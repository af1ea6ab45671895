import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { storedData, tablesWithoutPersonalData } from "~/site/stored-data";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

describeEachDatabase("the privacy policy's list of what is stored", (database) => {
  let handle: TestDatabaseHandle;
  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  it("names every table the migrations create, and no table that doesn't exist", async () => {
    const query =
      handle.dialect === "sqlite"
        ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
        : sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`;
    const tables = new Set((await query.execute(handle.db)).rows.map((row) => row.name));
    const described = [...storedData.flatMap((item) => item.tables), ...Object.keys(tablesWithoutPersonalData)];
    expect(
      [...tables].filter((table) => !described.includes(table)).sort(),
      "add it to app/site/stored-data.ts",
    ).toEqual([]);
    expect(described.filter((table) => !tables.has(table)).sort(), "no such table").toEqual([]);
    expect(new Set(described).size).toBe(described.length);
  });
});
