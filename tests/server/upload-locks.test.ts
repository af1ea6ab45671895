import { randomUUID } from "node:crypto";
import { ERRORS } from "@tus/server";
import { afterEach, beforeEach, expect, it } from "vitest";
import { InProcessBus, PostgresBus, type EventBus } from "~/realtime/bus.server";
import { databaseUploadLocker } from "~/uploads/upload-locks.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

describeEachDatabase("upload locks shared by instances", (database) => {
  let handle: TestDatabaseHandle;
  // Two instances: each its own bus (LISTEN/NOTIFY on PostgreSQL; one process's bus on SQLite).
  let buses: [EventBus, EventBus];

  beforeEach(async () => {
    handle = await database.open();
    if (database.dialect === "postgres") {
      const channel = `upskill_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
      const open = () => new PostgresBus({ connectionString: process.env.TEST_DATABASE_URL!, channel });
      buses = [open(), open()];
      await Promise.all(buses.map((bus) => (bus as PostgresBus).ready()));
    } else {
      const bus = new InProcessBus();
      buses = [bus, bus];
    }
  });
  afterEach(async () => {
    for (const bus of new Set(buses)) await bus.close();
    await handle.dispose();
  });

  const lockers = (options = {}) => buses.map((bus) => databaseUploadLocker(handle.db, bus, options));
  const rows = () => handle.db.selectFrom("upload_lock").selectAll().execute();

  it("lets one request write an upload; another asks it to let go, across instances, and then takes it", async () => {
    const [onA, onB] = lockers();
    const first = onA!.newLock("upload-1");
    let askedToRelease = 0;
    await first.lock(new AbortController().signal, () => {
      askedToRelease++;
      // As tus does: the asked request ends, and lets go.
      void first.unlock();
    });
    expect(await rows()).toHaveLength(1);
    // Another upload is not held up.
    const other = onB!.newLock("upload-2");
    await other.lock(new AbortController().signal, () => {});
    await other.unlock();

    const second = onB!.newLock("upload-1");
    const started = Date.now();
    await second.lock(new AbortController().signal, () => {});
    expect(askedToRelease).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    const [row] = await rows();
    expect(row?.uploadId).toBe("upload-1");
    await second.unlock();
    expect(await rows()).toEqual([]);
  });

  it("waits for a holder that does not let go, and gives up with tus's lock timeout", async () => {
    const [onA, onB] = lockers({ acquireTimeoutMs: 400 });
    const stubborn = onA!.newLock("upload-1");
    await stubborn.lock(new AbortController().signal, () => {});
    await expect(onB!.newLock("upload-1").lock(new AbortController().signal, () => {})).rejects.toBe(
      ERRORS.ERR_LOCK_TIMEOUT,
    );
    await stubborn.unlock();
  });

  it("takes over the lock of an instance that died once its lease has run out", async () => {
    // A row whose holder is gone: nobody renews it, nobody answers the request to let go.
    await handle.db
      .insertInto("upload_lock")
      .values({ uploadId: "upload-1", holder: "a dead instance", expiresAt: Date.now() + 300 })
      .execute();
    const [, onB] = lockers({ acquireTimeoutMs: 5_000 });
    const started = Date.now();
    const lock = onB!.newLock("upload-1");
    await lock.lock(new AbortController().signal, () => {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await rows())[0]?.holder).not.toBe("a dead instance");
    await lock.unlock();
  });
});
