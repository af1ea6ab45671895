import { afterEach, beforeEach, expect, it } from "vitest";
import { consumeAttempt, purgeExpiredRateLimits } from "~/security/rate-limit.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

describeEachDatabase("database rate limits", (database) => {
  let handle: TestDatabaseHandle;
  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(() => handle.dispose());

  it("allows max attempts per window, refuses the next, and opens a new window after it", async () => {
    const limit = { max: 3, windowMs: 60_000 };
    const start = 1_000_000;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await consumeAttempt(handle.db, "test:a", limit, start + i));
    expect(results).toEqual([true, true, true, false]);
    expect(await consumeAttempt(handle.db, "test:b", limit, start)).toBe(true);
    expect(await consumeAttempt(handle.db, "test:a", limit, start + 60_000)).toBe(true);
  });

  it("counts concurrent attempts exactly", async () => {
    const limit = { max: 10, windowMs: 60_000 };
    const results = await Promise.all(
      Array.from({ length: 25 }, () => consumeAttempt(handle.db, "test:concurrent", limit, 5_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(10);
  });

  it("purges rows whose window has ended, ours and better-auth's, and keeps live ones", async () => {
    const now = 10_000_000;
    await consumeAttempt(handle.db, "test:old", { max: 1, windowMs: 1_000 }, now - 5_000);
    await consumeAttempt(handle.db, "test:live", { max: 1, windowMs: 60_000 }, now - 5_000);
    await handle.db
      .insertInto("rateLimit")
      .values([
        { id: "a", key: "old-ip", count: 1, lastRequest: now - 3_600_000 },
        { id: "b", key: "new-ip", count: 1, lastRequest: now - 1_000 },
      ])
      .execute();
    expect(await purgeExpiredRateLimits(handle.db, now)).toBe(2);
    const ours = await handle.db.selectFrom("rate_limit").select("key").execute();
    const auths = await handle.db.selectFrom("rateLimit").select("key").execute();
    expect(ours.map((r) => r.key)).toEqual(["test:live"]);
    expect(auths.map((r) => r.key)).toEqual(["new-ip"]);
  });
});
