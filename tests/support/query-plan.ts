import { sql, type CompiledQuery } from "kysely";
import type { Db } from "~/db/database.server";
import type { TestDatabaseHandle } from "./databases";

/**
 * A query's plan as one text. On PostgreSQL a table this small would be read whole (and
 * sorted), so those plans are ruled out: what is checked is that an index can serve the query
 * and its order.
 */
export async function queryPlan(handle: TestDatabaseHandle, query: CompiledQuery): Promise<string> {
  if (handle.dialect === "sqlite") {
    const result = await handle.db.executeQuery<{ detail: string }>({
      ...query,
      sql: `explain query plan ${query.sql}`,
    });
    return result.rows.map((r) => r.detail).join("\n");
  }
  return handle.db.transaction().execute(async (trx: Db) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_bitmapscan = off`.execute(trx);
    const result = await trx.executeQuery<{ "QUERY PLAN": string }>({ ...query, sql: `explain ${query.sql}` });
    return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

/** The plan's sorting steps (SQLite's temporary B-trees, PostgreSQL's Sort nodes). */
export const sortSteps = (plan: string) => plan.split("\n").filter((line) => /TEMP B-TREE|Sort/.test(line));
