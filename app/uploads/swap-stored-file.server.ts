import { PostgresAdapter, type Kysely } from "kysely";
import type { Db } from "~/db/database.server";
import { touch } from "~/core/transaction.server";

/** The tables that hold one stored file per learner, keyed by learnerId. */
type OneFileTable = "resume" | "profile_photo";

/**
 * Points a learner's row at a new stored file and returns the key it replaced, so that the
 * caller deletes exactly that file after commit. Two concurrent replacements each get a
 * different previous key (the row is locked on PostgreSQL; SQLite runs one transaction at a
 * time), so no file is left without a row. Call it inside a transaction.
 */
export async function swapStoredFile<T extends OneFileTable>(
  trx: Db,
  table: T,
  learnerId: string,
  values: Record<string, unknown> & { storageKey: string },
): Promise<string | undefined> {
  // The two tables share the columns used here; Kysely can't see that through a union.
  const db = trx as unknown as Kysely<Record<OneFileTable, { learnerId: string; storageKey: string }>>;
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  // The learner's pages and the staff list show the file.
  await touch(trx, { people: [learnerId] });
  for (;;) {
    const select = db
      .selectFrom(table as OneFileTable)
      .select("storageKey")
      .where("learnerId", "=", learnerId);
    const old = await (postgres ? select.forUpdate() : select).executeTakeFirst();
    if (old) {
      await db
        .updateTable(table as OneFileTable)
        .set(values)
        .where("learnerId", "=", learnerId)
        .execute();
      return old.storageKey;
    }
    const inserted = await db
      .insertInto(table as OneFileTable)
      .values({ learnerId, ...values })
      .onConflict((oc) => oc.column("learnerId").doNothing())
      .returning("learnerId")
      .executeTakeFirst();
    if (inserted) return undefined;
    // Another replacement inserted the first row meanwhile: lock and replace that one.
  }
}
