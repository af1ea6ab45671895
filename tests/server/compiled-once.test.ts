import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { compiledOnce } from "~/db/compiled-once.server";
import type { Db } from "~/db/database.server";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";

describeEachDatabase("queries compiled once", (database) => {
  let handle: TestDatabaseHandle;

  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  const addUser = async (name: string) => ({
    id: await insertUser(handle.db, { name, email: `${name.toLowerCase()}@example.com` }),
  });

  it("binds each call's own values and returns what the built query returns", async () => {
    const anna = await addUser("Anna");
    const bela = await addUser("Bela");
    const byEmail = (db: Db, email: string, name: string) =>
      db.selectFrom("user").select(["id", "name"]).where("email", "=", email).where("name", "=", name);
    const compiled = compiledOnce(byEmail);
    for (const [email, name, id] of [
      ["anna@example.com", "Anna", anna.id],
      ["bela@example.com", "Bela", bela.id],
      ["anna@example.com", "Bela", undefined],
    ] as const) {
      const rows = await compiled(handle.db, email, name);
      expect(rows).toEqual(await byEmail(handle.db, email, name).execute());
      expect(rows.map((r) => r.id)).toEqual(id ? [id] : []);
    }
  });

  it("refuses a query that changes an argument instead of binding it", async () => {
    const contains = compiledOnce((db: Db, part: string) =>
      db.selectFrom("user").select("id").where("name", "like", `%${part}%`),
    );
    await expect(contains(handle.db, "nn")).rejects.toThrow("argument 0 is not bound as it was given");
  });

  it("is prepared once per PostgreSQL connection, under its own name", async () => {
    if (database.dialect !== "postgres") return expect(database.dialect).toBe("sqlite");
    const build = (db: Db, email: string) =>
      db.selectFrom("user").select(["id", "email"]).where("email", "=", email).where("name", "!=", "");
    const byEmail = compiledOnce(build);
    const statements = await handle.db.connection().execute(async (connection) => {
      await byEmail(connection, "nobody@example.com");
      await byEmail(connection, "somebody@example.com");
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        connection,
      );
      return rows.map((r) => r.statement);
    });
    const text = build(handle.db, "x").compile().sql;
    expect(statements.filter((statement) => statement === text)).toHaveLength(1);
  });
});
