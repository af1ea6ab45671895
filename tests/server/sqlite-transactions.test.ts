import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { openDatabase } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { whileBusy } from "~/db/node-sqlite.server";

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

// node:sqlite runs on the event loop: SQLite's own busy wait would stop every request of this
// process while another process (a second worker of `npm start`) holds the write lock. A
// transaction, and a lone write, wait for it with the event loop free, and then go ahead.
it("waits for another process's write lock without holding the event loop, then writes", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-sqlite-wait-"));
  const handle = await openDatabase({ dataDir });
  await migrateToLatest(handle.db);
  const other = new DatabaseSync(path.join(dataDir, "upskill.sqlite"));
  try {
    await sql`create table counter (n integer not null)`.execute(handle.db);
    await sql`insert into counter values (0)`.execute(handle.db);
    other.exec("begin immediate");
    const ticks: number[] = [];
    const ticking = setInterval(() => ticks.push(Date.now()), 2);
    const started = Date.now();
    const inTransaction = handle.db.transaction().execute(async (trx) => {
      await sql`update counter set n = n + 1`.execute(trx);
    });
    const lone = sql`update counter set n = n + 10`.execute(handle.db);
    // The other process keeps the lock for 150 ms; the event loop runs meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const ticksWhileLocked = ticks.length;
    // A read outside any transaction of this process is answered while the writes wait.
    expect(await handle.keptAnswerStamp("no-such-token")).toBe("signed-out");
    other.exec("update counter set n = n + 100");
    other.exec("commit");
    await Promise.all([inTransaction, lone]);
    clearInterval(ticking);
    expect(ticksWhileLocked).toBeGreaterThan(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const { rows } = await sql<{ n: number }>`select n from counter`.execute(handle.db);
    expect(rows[0]!.n).toBe(111);
  } finally {
    other.close();
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it("gives up on a write lock held longer than the busy timeout, as SQLite's own wait would", async () => {
  let tries = 0;
  const locked = Object.assign(new Error("database is locked"), { errcode: 5 });
  await expect(
    whileBusy(async () => {
      tries++;
      throw locked;
    }, 40),
  ).rejects.toBe(locked);
  expect(tries).toBeGreaterThan(3);
  // Any other failure is not waited on.
  const other = Object.assign(new Error("no such table: nothing"), { errcode: 1 });
  tries = 0;
  await expect(
    whileBusy(async () => {
      tries++;
      throw other;
    }),
  ).rejects.toBe(other);
  expect(tries).toBe(1);
});
