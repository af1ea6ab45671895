import { afterEach, beforeEach, expect, it } from "vitest";
import { AnonymousPageCache } from "~/http/page-cache.server";
import { setPublicConsent } from "~/placement/consent.server";
import { publicOutcomes } from "~/placement/public-outcomes.server";
import { staffTopic, userTopic } from "~/realtime/events";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { placeInPublishedBatch } from "../support/placement-fixtures";
import { createHarness, type Harness, type Learner } from "../support/test-app";
import { todayIn } from "~/core/dates";

// The public outcomes page under a learner's consent changes: the anonymous page cache, fed
// by the placement records of a real database and told of changes on the services' bus as
// the HTTP server wires it, shares one render after a change and serves the page it had
// meanwhile; consent given or withdrawn twice tells nobody.
describeEachDatabase("cached public pages under churn", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let learner: Learner;
  let renders: number;
  let gate: Promise<void> | null;
  let cache: AnonymousPageCache;
  let stopListening: () => void;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    learner = await h.signUp("Kavya");
    await placeInPublishedBatch(handle.db, learner.id);

    renders = 0;
    gate = null;
    const { db } = handle;
    cache = new AnonymousPageCache(
      async () => {
        renders++;
        // Reads first, then waits: what it shows is the records at its start.
        const outcomes = await publicOutcomes(db, todayIn("Asia/Kolkata"));
        if (gate) await gate;
        const names = outcomes.placedByName.map((placed) => placed.name).join(", ");
        return new Response(`<html><body>Placed: ${names || "nobody named"}</body></html>`);
      },
      new Set(["/outcomes"]),
    );
    stopListening = h.services.bus.subscribe(staffTopic, (event) => {
      if (event.type === "placement" || event.type === "resync") cache.drop("/outcomes");
    });
    await cache.warm();
  });
  afterEach(async () => {
    stopListening();
    await h.dispose();
    await handle.dispose();
  });

  const shown = () => cache.peek("/outcomes")?.bodies.identity.toString() ?? "no page";
  const consent = (given: boolean) => setPublicConsent({ db: handle.db, bus: h.services.bus }, learner.id, given);

  it("after a change, 50 visitors at once share one render and get the old page until it is done", async () => {
    expect(shown()).toContain("Placed: nobody named");
    expect(renders).toBe(1);
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    // A second after the warm-up's render, so the change's render may start at once.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const changedAt = performance.now();
    await consent(true);
    await expect.poll(() => renders).toBe(2); // the change starts one render at once
    const visitors = await Promise.all(Array.from({ length: 50 }, async () => shown()));
    expect(new Set(visitors)).toEqual(new Set(["<html><body>Placed: nobody named</body></html>"]));
    expect(renders).toBe(2);

    open();
    await expect.poll(shown, { timeout: 2000, interval: 20 }).toContain("Placed: Kavya");
    expect(performance.now() - changedAt).toBeLessThan(2000);
    expect(renders).toBe(2);
  });

  it("renders at most once a second while consent flips every 100 ms, serves a page throughout, and shows the last state within 2 s", async () => {
    const served: string[] = [];
    const visiting = setInterval(() => served.push(shown()), 10);
    const started = performance.now();
    let given = false;
    try {
      while (performance.now() - started < 2500) {
        given = !given;
        await consent(given);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      clearInterval(visiting);
    }
    const lastChange = performance.now();
    const elapsedSeconds = (lastChange - started) / 1000;
    expect(served.length).toBeGreaterThan(50);
    expect(served.filter((page) => page === "no page")).toEqual([]);
    // The warm-up's render, then at most one per second started (plus the one a last change may add).
    expect(renders).toBeLessThanOrEqual(1 + Math.ceil(elapsedSeconds) + 1);
    expect(renders).toBeGreaterThanOrEqual(2);
    await expect
      .poll(shown, { timeout: 2000, interval: 20 })
      .toContain(given ? "Placed: Kavya" : "Placed: nobody named");
    expect(performance.now() - lastChange).toBeLessThan(2000);
  });

  it("announces a consent given or withdrawn only when it changed something", async () => {
    const heard: string[] = [];
    const stops = [
      h.services.bus.subscribe(staffTopic, (event) => heard.push(`staff ${event.type}`)),
      h.services.bus.subscribe(userTopic(learner.id), (event) => heard.push(`learner ${event.type}`)),
    ];
    try {
      const act = async (intent: string) => {
        const answer = await h.act(learner, "/placement", { intent });
        expect(answer.status, answer.data.message).toBe(200);
        // Events are delivered after the commit; give a PostgreSQL notification time to arrive.
        await new Promise((resolve) => setTimeout(resolve, 150));
        return heard.splice(0).sort();
      };
      expect(await act("give-consent")).toEqual(["learner placement", "staff placement"]);
      expect(await act("give-consent")).toEqual([]);
      expect(await act("withdraw-consent")).toEqual(["learner placement", "staff placement"]);
      expect(await act("withdraw-consent")).toEqual([]);
      const rendersBefore = renders;
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await expect.poll(shown).toContain("Placed: nobody named");
      // Two real changes (given, withdrawn) and no more renders than they asked for.
      expect(renders - rendersBefore).toBeLessThanOrEqual(1);
    } finally {
      for (const stop of stops) stop();
    }
  });
});
