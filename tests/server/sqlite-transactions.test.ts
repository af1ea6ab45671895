import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { openDatabase } from "~/db/database.server";

// A transaction that reads first and then writes would fail with SQLITE_BUSY if another process
// (npm run role while the server runs) wrote in between; so every transaction takes the write
// lock when it begins, and the other process waits its busy timeout instead.
it("takes SQLite's write lock when a transaction begins, before its first read", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-sqlite-tx-"));
  const handle = await openDatabase({ dataDir });
  const other = new DatabaseSync(path.join(dataDir, "upskill.sqlite"));
  try {
    await sql`create table counter (n integer not null)`.execute(handle.db);
    await sql`insert into counter values (0)`.execute(handle.db);
    other.exec("PRAGMA busy_timeout = 0");
    await handle.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
      // Another process can't write now: this transaction holds the lock already.
      expect(() => other.exec("update counter set n = n + 100")).toThrow(/locked/);
      await sql`update counter set n = ${rows[0]!.n + 1}`.execute(trx);
    });
    other.exec("update counter set n = n + 100");
    const { rows } = await sql<{ n: number }>`select n from counter`.execute(handle.db);
    expect(rows[0]!.n).toBe(101);
  } finally {
    other.close();
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
