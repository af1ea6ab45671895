import { afterEach, expect, it } from "vitest";
import { pageCacheStage } from "~/http/page-cache-stage.server";
import { createEventBus } from "~/realtime/bus.server";
import { staffTopic } from "~/realtime/events";

// Which cached public pages a placement event drops: a consent change renders /outcomes again
// (its names) and leaves the landing page, whose figure counts everyone, as it was.
const bus = createEventBus({ databaseUrl: undefined });
afterEach(() => {
  renders.length = 0;
});
const renders: string[] = [];
const stage = pageCacheStage({
  render: async (path) => {
    renders.push(path);
    return new Response(`<html><body>${path}</body></html>`);
  },
  bus,
  secureHeaders: {},
});

async function rendersAfter(publish: () => Promise<void>): Promise<string[]> {
  renders.length = 0;
  await publish();
  // Renders start at most once a second per page: wait for the turn, then for the render.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  return [...renders].sort();
}

it("drops /outcomes alone on a consent change, and / with it on any other placement change", async () => {
  await stage.warm();
  expect(await rendersAfter(() => bus.publish(staffTopic, { type: "placement", consentOnly: true }))).toEqual([
    "/outcomes",
  ]);
  expect(await rendersAfter(() => bus.publish(staffTopic, { type: "placement", learnerId: "x" }))).toEqual([
    "/",
    "/outcomes",
  ]);
  expect(await rendersAfter(() => bus.publish(staffTopic, { type: "resync" }))).toEqual(["/", "/outcomes"]);
  expect(await rendersAfter(() => bus.publish(staffTopic, { type: "enquiries" }))).toEqual([]);
  stage.stop();
  await bus.close();
});
