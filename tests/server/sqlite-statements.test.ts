// The node:sqlite adapter keeps prepared statements. SQLite only: PostgreSQL goes through pg,
// which has no such adapter.
import { DatabaseSync } from "node:sqlite";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adaptNodeSqlite, preparedStatementLimit } from "~/db/node-sqlite.server";

interface Tables {
  item: { id: number; name: string };
}

describe("node:sqlite prepared statements", () => {
  let raw: DatabaseSync;
  let db: Kysely<Tables>;
  const prepared: string[] = [];
  const preparedCount = (text: string) => prepared.filter((s) => s === text).length;

  beforeEach(async () => {
    raw = new DatabaseSync(":memory:");
    const prepare = raw.prepare.bind(raw);
    prepared.length = 0;
    raw.prepare = (text: string) => {
      prepared.push(text);
      return prepare(text);
    };
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: adaptNodeSqlite(raw) }) });
    await sql`create table item (id integer primary key, name text not null unique)`.execute(db);
    await db
      .insertInto("item")
      .values([1, 2, 3, 4, 5].map((id) => ({ id, name: `item ${id}` })))
      .execute();
  });
  afterEach(async () => {
    await db.destroy();
  });

  const namesAbove = (id: number) => db.selectFrom("item").select("name").where("id", ">", id).orderBy("id");
  const namesAboveSql = () => namesAbove(0).compile().sql;

  it("prepares the same SQL once, whatever the parameters", async () => {
    expect(await namesAbove(3).execute()).toEqual([{ name: "item 4" }, { name: "item 5" }]);
    expect(await namesAbove(4).execute()).toEqual([{ name: "item 5" }]);
    expect(await namesAbove(5).execute()).toEqual([]);
    expect(preparedCount(namesAboveSql())).toBe(1);
  });

  it("still tells statements that return rows from those that do not", async () => {
    const inserted = await db.insertInto("item").values({ id: 6, name: "item 6" }).executeTakeFirst();
    expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
    const returned = await db.insertInto("item").values({ id: 7, name: "item 7" }).returning("name").execute();
    expect(returned).toEqual([{ name: "item 7" }]);
    const again = await db.insertInto("item").values({ id: 8, name: "item 8" }).returning("name").execute();
    expect(again).toEqual([{ name: "item 8" }]);
    const updated = await db.updateTable("item").set({ name: "renamed" }).where("id", "=", 8).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
  });

  it("streams through Kysely", async () => {
    const streamed: string[] = [];
    for await (const row of namesAbove(2).stream()) streamed.push(row.name);
    expect(streamed).toEqual(["item 3", "item 4", "item 5"]);
  });

  it("keeps an iterator valid while the same SQL runs again before it ends", () => {
    // Kysely runs one query at a time on SQLite, so this is the adapter's own contract.
    const adapter = adaptNodeSqlite(raw);
    const text = namesAboveSql();
    const iterator = adapter.prepare(text).iterate([0]);
    expect(iterator.next().value).toEqual({ name: "item 1" });
    expect(adapter.prepare(text).all([3])).toEqual([{ name: "item 4" }, { name: "item 5" }]);
    expect([...iterator]).toEqual([{ name: "item 2" }, { name: "item 3" }, { name: "item 4" }, { name: "item 5" }]);
  });

  it("reuses a statement that failed", async () => {
    const insert = (id: number, name: string) => db.insertInto("item").values({ id, name });
    await expect(insert(9, "item 1").execute()).rejects.toThrow(/UNIQUE/);
    await insert(9, "item 9").execute();
    expect(await namesAbove(8).execute()).toEqual([{ name: "item 9" }]);
    expect(preparedCount(insert(0, "").compile().sql)).toBe(1);
  });

  it(`keeps at most ${preparedStatementLimit} statements, dropping the least recently used`, async () => {
    const byId = (id: number) => db.selectFrom("item").select("name").where("id", "=", id);
    await namesAbove(0).execute();
    await byId(1).execute();
    // Distinct SQL texts, as `in (?, ?, …)` lists of every length would make.
    for (let n = 1; n < preparedStatementLimit; n++) {
      await sql`select ${sql.lit(n)} as n`.execute(db);
      if (n === preparedStatementLimit / 2) await byId(2).execute();
    }
    await byId(3).execute();
    await namesAbove(0).execute();
    expect(preparedCount(byId(0).compile().sql)).toBe(1);
    expect(preparedCount(namesAboveSql())).toBe(2);
  });
});
