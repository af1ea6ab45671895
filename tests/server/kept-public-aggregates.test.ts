import { afterEach, beforeEach, expect, it } from "vitest";
import { todayIn } from "~/core/dates";
import { setPublicConsent } from "~/placement/consent.server";
import { keptPublicAggregates } from "~/placement/kept-public-aggregates.server";
import { publicOutcomesFrom } from "~/placement/public-outcomes.server";
import { publicSiteTopic, staffTopic } from "~/realtime/events";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { insertBatch, insertEnrolment, insertOffer } from "../support/placement-fixtures";
import { createHarness, type Harness, type Learner } from "../support/test-app";

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

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
    const batchId = await insertBatch(handle.db, {
      name: "Web Development – Jan",
      course: "Web Development",
      startDate: daysAgo(380),
      endDate: daysAgo(200),
      payment: "upfront",
      termsId: null,
    });
    await insertEnrolment(handle.db, { batchId, learnerId: learner.id, graduation: "graduated", seeking: true });
    await insertOffer(handle.db, learner.id, {
      company: "Persistent Systems",
      stage: "joined",
      status: "verified",
      offerDate: daysAgo(180),
      joiningDate: daysAgo(170),
      ctcPaise: 450_000_00,
    });
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

  it("is read again on another day", async () => {
    const kept = await keptPublicAggregates(handle.db, today);
    expect(await keptPublicAggregates(handle.db, "2099-01-01")).not.toBe(kept);
  });
});
