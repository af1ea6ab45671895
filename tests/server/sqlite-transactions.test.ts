import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { whileBusy } from "~/db/node-sqlite.server";
import { insertUser, stampFor } from "../support/databases";

/** A new SQLite database opened as the server opens it, and another process's connection to its file. */
async function onFreshSqlite(
  { migrated }: { migrated: boolean },
  work: (handle: DatabaseHandle, other: DatabaseSync) => Promise<void>,
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-sqlite-"));
  const handle = await openDatabase({ dataDir });
  const other = new DatabaseSync(path.join(dataDir, "upskill.sqlite"));
  try {
    if (migrated) await migrateToLatest(handle.db);
    await work(handle, other);
  } finally {
    other.close();
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// A transaction that reads first and then writes would fail with SQLITE_BUSY if another process
// (npm run role while the server runs) wrote in between; so every transaction takes the write
// lock when it begins, and the other process waits its busy timeout instead.
it("takes SQLite's write lock when a transaction begins, before its first read", async () => {
  await onFreshSqlite({ migrated: false }, async (handle, other) => {
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
  });
});

// node:sqlite runs on the event loop: SQLite's own busy wait would stop every request of this
// process while another process (a second worker of `npm start`) holds the write lock. A
// transaction, and a lone write, wait for it with the event loop free, and then go ahead.
it("waits for another process's write lock without holding the event loop, then writes", async () => {
  await onFreshSqlite({ migrated: true }, async (handle, other) => {
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
    expect(await stampFor(handle, "no-such-token")).toBe("signed-out");
    other.exec("update counter set n = n + 100");
    other.exec("commit");
    await Promise.all([inTransaction, lone]);
    clearInterval(ticking);
    expect(ticksWhileLocked).toBeGreaterThan(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const { rows } = await sql<{ n: number }>`select n from counter`.execute(handle.db);
    expect(rows[0]!.n).toBe(111);
  });
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

// The stamp is read at once only outside a transaction: inside one, the connection would show
// the transaction's writes before they commit (here a session deleted and then rolled back).
it("reads the kept-answer stamp after a transaction of this process ends, not inside it", async () => {
  await onFreshSqlite({ migrated: true }, async (handle) => {
    const userId = await insertUser(handle.db, { name: "Asha", email: "asha@example.com" });
    const at = new Date().toISOString();
    await handle.db
      .insertInto("session")
      .values({
        id: "s1",
        token: "token-1",
        userId,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        createdAt: at,
        updatedAt: at,
      } as never)
      .execute();
    const signedIn = await stampFor(handle, "token-1");
    expect(signedIn).not.toBe("signed-out");
    let seen: Promise<string> | undefined;
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom("session").where("token", "=", "token-1").execute();
        seen = stampFor(handle, "token-1");
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await seen).toBe(signedIn);
  });
});
