import { afterEach, beforeEach, expect, it } from "vitest";
import { todayIn } from "~/core/dates";
import { setPublicConsent } from "~/placement/consent.server";
import { forgetPublicAggregates, keptPublicAggregates } from "~/placement/kept-public-aggregates.server";
import { publicOutcomesFrom } from "~/placement/public-outcomes.server";
import { publicSiteTopic, staffTopic } from "~/realtime/events";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { placeInPublishedBatch } from "../support/placement-fixtures";
import { createHarness, type Harness, type Learner } from "../support/test-app";

// The aggregates /outcomes and the landing figure share are read once and kept on the services'
// bus: a learner's consent (names only) keeps them, any other placement change, a resync or a
// change to the public site forgets them.
describeEachDatabase("kept public aggregates", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let learner: Learner;
  const today = todayIn("Asia/Kolkata");

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    learner = await h.signUp("Kavya");
    await placeInPublishedBatch(handle.db, learner.id);
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  // A PostgreSQL notification arrives a moment after its commit.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

  it("keeps them across consent changes, and the names still follow the consent", async () => {
    const first = await keptPublicAggregates(handle.db, today);
    expect(first.report.all.placementRate.numerator).toBe(1);
    expect(await keptPublicAggregates(handle.db, today)).toBe(first);

    await setPublicConsent({ db: handle.db, bus: h.services.bus }, learner.id, true);
    await settle();
    const kept = await keptPublicAggregates(handle.db, today);
    expect(kept).toBe(first);
    expect((await publicOutcomesFrom(handle.db, kept)).placedByName.map((p) => p.name)).toEqual(["Kavya"]);

    await setPublicConsent({ db: handle.db, bus: h.services.bus }, learner.id, false);
    await settle();
    expect(await keptPublicAggregates(handle.db, today)).toBe(first);
    expect((await publicOutcomesFrom(handle.db, first)).placedByName).toEqual([]);
  });

  it("forgets them when placement records change, on a resync and when the public site changes", async () => {
    let kept = await keptPublicAggregates(handle.db, today);
    for (const [topic, event] of [
      [staffTopic, { type: "placement", learnerId: learner.id }],
      [staffTopic, { type: "placement" }],
      [staffTopic, { type: "resync" }],
      [publicSiteTopic, { type: "public-site-changed" }],
    ] as const) {
      await h.services.bus.publish(topic, event);
      await settle();
      const next = await keptPublicAggregates(handle.db, today);
      expect(next, `${topic} ${event.type}`).not.toBe(kept);
      expect(next.report.all.placementRate.numerator).toBe(1);
      kept = next;
    }
    // A consent-only event keeps them.
    await h.services.bus.publish(staffTopic, { type: "placement", learnerId: learner.id, consentOnly: true });
    await settle();
    expect(await keptPublicAggregates(handle.db, today)).toBe(kept);
  });

  it("a read that was under way when records changed is not kept", async () => {
    const underWay = keptPublicAggregates(handle.db, today);
    await h.services.bus.publish(staffTopic, { type: "placement" });
    await settle();
    const before = await underWay;
    expect(await keptPublicAggregates(handle.db, today)).not.toBe(before);
  });

  it("forgets them when a write made outside the server is seen (the page cache's outside check calls it)", async () => {
    const kept = await keptPublicAggregates(handle.db, today);
    forgetPublicAggregates();
    expect(await keptPublicAggregates(handle.db, today)).not.toBe(kept);
  });

  it("is read again on another day", async () => {
    const kept = await keptPublicAggregates(handle.db, today);
    expect(await keptPublicAggregates(handle.db, "2099-01-01")).not.toBe(kept);
  });
});
