import { afterEach, beforeEach, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";

// The signed-in pages kept in memory are keyed by this stamp: a write it missed would show a
// stale page, so every way a write can happen is tried here.
describeEachDatabase("the database's change stamp", (database) => {
  let handle: TestDatabaseHandle;
  let other: DatabaseHandle | undefined;

  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(async () => {
    await other?.close();
    other = undefined;
    await handle.dispose();
  });

  it("stays the same while only reads happen", async () => {
    await insertUser(handle.db, { name: "Asha", email: "asha@example.com" });
    // PostgreSQL's snapshot is the whole server's: other tests writing at the same moment change
    // it too. Reads alone must leave it unchanged in at least one of several tries.
    const tries = database.dialect === "postgres" ? 20 : 1;
    const unchanged = [];
    for (let i = 0; i < tries; i++) {
      const before = await handle.changeStamp();
      for (let j = 0; j < 3; j++) await handle.db.selectFrom("user").selectAll().execute();
      unchanged.push((await handle.changeStamp()) === before);
    }
    expect(unchanged).toContain(true);
  });

  it("changes with a write of this connection", async () => {
    const before = await handle.changeStamp();
    await insertUser(handle.db, { name: "Asha", email: "asha@example.com" });
    const after = await handle.changeStamp();
    expect(after).not.toBe(before);
    await handle.db.updateTable("user").set({ name: "Asha K" }).execute();
    expect(await handle.changeStamp()).not.toBe(after);
  });

  it("changes when another connection (another instance or process) commits", async () => {
    other = await handle.reopen();
    const before = await handle.changeStamp();
    await insertUser(other.db, { name: "Ravi", email: "ravi@example.com" });
    const after = await handle.changeStamp();
    expect(after).not.toBe(before);
    await other.db.deleteFrom("user").execute();
    expect(await handle.changeStamp()).not.toBe(after);
  });

  it("changes when a transaction that was running as it was read commits", async () => {
    other = await handle.reopen();
    await insertUser(handle.db, { name: "Asha", email: "asha@example.com" });
    let during = "";
    await other.db.transaction().execute(async (trx) => {
      await trx.updateTable("user").set({ name: "Asha K" }).execute();
      during = await handle.changeStamp();
      // Not committed: this connection still reads the old name under that stamp.
      const [row] = await handle.db.selectFrom("user").select("name").execute();
      expect(row?.name).toBe("Asha");
    });
    expect(await handle.changeStamp()).not.toBe(during);
  });
});
