import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadDashboard } from "~/dashboard/dashboard-page.server";
import { addTaskLink } from "~/learners/task-links.server";
import { sendMessage, setOfferLetter } from "~/messages/messages.server";
import { PostgresBus } from "~/realtime/bus.server";
import type { RealtimeEvent } from "~/realtime/events";
import { maxStreamsPerUser } from "~/realtime/stream-registry.server";
import { tooManyStreams } from "~/realtime/user-stream.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, type Harness, type Learner } from "../support/test-app";

/** Reads a server-sent event stream as a list of what arrived (events, heartbeats). */
async function openStream(url: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, { headers: { cookie }, signal: controller.signal });
  const received: { event: string; data?: RealtimeEvent; at: number }[] = [];
  let text = "";
  let ended = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = text.indexOf("\n\n")) !== -1) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          if (block.startsWith(":")) {
            received.push({ event: "heartbeat", at: Date.now() });
            continue;
          }
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
          const data = /^data: (.*)$/m.exec(block)?.[1];
          received.push({ event, data: data ? (JSON.parse(data) as RealtimeEvent) : undefined, at: Date.now() });
        }
      }
      ended = true;
    } catch {
      // aborted
    }
  })();
  const waitFor = async (predicate: (r: (typeof received)[number]) => boolean, timeoutMs = 1_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = received.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`not received within ${timeoutMs} ms: ${JSON.stringify(received)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await waitFor((r) => r.event === "ready");
  return {
    response,
    received,
    waitFor,
    /** True once the server has ended the stream. */
    ended: () => ended,
    async close() {
      controller.abort();
      await reading;
    },
  };
}

describeEachDatabase("learner live updates", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let server: { url: string; close(): Promise<void> };
  let first: Learner;
  let second: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    server = await h.listen({ heartbeatMs: 150 });
    first = await h.signUp("first");
    second = await h.signUp("second");
  });
  afterEach(async () => {
    await server.close();
    await h.dispose();
    await handle.dispose();
  });

  it("refuses a stream without a session", async () => {
    expect((await fetch(`${server.url}/api/events`)).status).toBe(401);
  });

  it("caps open streams per user and refuses the next with 429", async () => {
    const streams = [];
    for (let i = 0; i < maxStreamsPerUser; i++) streams.push(await openStream(server.url, first.cookie));
    const refused = await fetch(`${server.url}/api/events`, { headers: { cookie: first.cookie } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: tooManyStreams });
    // Another user is not affected, and a closed stream frees its place.
    const other = await openStream(server.url, second.cookie);
    await streams.pop()!.close();
    await expect.poll(() => h.streams.size).toBe(maxStreamsPerUser);
    streams.push(await openStream(server.url, first.cookie));
    for (const stream of [...streams, other]) await stream.close();
  });

  it("ends a stream soon after its session is signed out, and a staff stream when the role goes", async () => {
    const learnerStream = await openStream(server.url, first.cookie);
    await handle.db.updateTable("user").set({ role: "trainer" }).where("id", "=", second.id).execute();
    const staffStream = await openStream(server.url, second.cookie);
    const otherTab = await openStream(server.url, second.cookie);
    const stop = h.streams.startChecking(200);
    try {
      // Still signed in, same role: the streams stay.
      await new Promise((r) => setTimeout(r, 500));
      expect([learnerStream.ended(), staffStream.ended(), otherTab.ended()]).toEqual([false, false, false]);

      const signOut = await h.auth.api.signOut({ headers: new Headers({ cookie: first.cookie }), asResponse: true });
      expect(signOut.status).toBe(200);
      await expect.poll(() => learnerStream.ended(), { timeout: 5_000 }).toBe(true);

      // Demoted in the database (by the role command or another instance): every tab's stream ends.
      await handle.db.updateTable("user").set({ role: null }).where("id", "=", second.id).execute();
      await expect.poll(() => staffStream.ended() && otherTab.ended(), { timeout: 5_000 }).toBe(true);
      expect(h.streams.size).toBe(0);
    } finally {
      stop();
      for (const stream of [learnerStream, staffStream, otherTab]) await stream.close();
    }
  });

  it("carries only the signed-in user's own events, within a second, with heartbeats", async () => {
    const a = await openStream(server.url, first.cookie);
    const b = await openStream(server.url, second.cookie);
    expect(a.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const deps = { db: handle.db, bus: h.bus };

    const sent = Date.now();
    await sendMessage(deps, { learnerId: first.id, kind: "notice", html: "<p>hi</p>", sentBy: null });
    const got = await a.waitFor((r) => r.data?.type === "messages");
    expect(got.data).toEqual({ type: "messages", kind: "notice" });
    expect(got.at - sent).toBeLessThan(1_000);
    await setOfferLetter(deps, { learnerId: first.id, html: "<p>offer</p>", updatedBy: null });
    await a.waitFor((r) => r.data?.type === "offer-letter");
    await addTaskLink(deps, first.id, "https://example.com/x");
    await a.waitFor((r) => r.data?.type === "task-links");

    await a.waitFor((r) => r.event === "heartbeat", 1_000);
    await b.waitFor((r) => r.event === "heartbeat", 1_000);
    expect(b.received.filter((r) => r.data && r.event === "message")).toEqual([]);
    await a.close();
    await b.close();
  });

  it("gives staff the staff topic (new task links) besides their own", async () => {
    await handle.db.updateTable("user").set({ role: "mentor" }).where("id", "=", second.id).execute();
    const staff = await openStream(server.url, second.cookie);
    const learner = await openStream(server.url, first.cookie);
    await addTaskLink({ db: handle.db, bus: h.bus }, first.id, "https://example.com/y");
    expect((await staff.waitFor((r) => r.data?.type === "task-links")).data).toEqual({
      type: "task-links",
      learnerId: first.id,
    });
    await learner.waitFor((r) => r.data?.type === "task-links");
    await staff.close();
    await learner.close();
  });

  it("ends the stream's subscription when the client goes away", async () => {
    const counted = () => (h.bus as unknown as { subscribers: { size: number } }).subscribers.size;
    const a = await openStream(server.url, first.cookie);
    expect(counted()).toBe(1);
    await a.close();
    const deadline = Date.now() + 2_000;
    while (counted() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(counted()).toBe(0);
  });

  /** Two app instances on one PostgreSQL database: a message sent through one reaches a stream on the other. */
  it.runIf(database.dialect === "postgres")("delivers across two instances through LISTEN/NOTIFY", async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const channel = `upskill_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const busA = new PostgresBus({ connectionString: url, channel });
    const busB = new PostgresBus({ connectionString: url, channel });
    await Promise.all([busA.ready(), busB.ready()]);
    // The same schema through a second connection pool, as a second app instance would have.
    const handleA = handle;
    const handleB = await handle.reopen();
    const instanceA = await createHarness(handleA, { bus: busA });
    const instanceB = await createHarness({ ...handleA, db: handleB.db }, { bus: busB });
    const serverA = await instanceA.listen();
    const serverB = await instanceB.listen();
    try {
      const learner = await instanceA.signUp("listener");
      // The stream is on instance B; the message is sent through instance A.
      const stream = await openStream(serverB.url, learner.cookie);
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const sent = Date.now();
        await sendMessage(
          { db: handleA.db, bus: busA },
          { learnerId: learner.id, kind: "task", html: `<p>${i}</p>`, sentBy: null },
        );
        const before = stream.received.length;
        await stream.waitFor((r) => stream.received.indexOf(r) >= before - 1 && r.data?.type === "messages");
        latencies.push(Date.now() - sent);
        stream.received.length = 0;
      }
      expect(Math.max(...latencies)).toBeLessThan(1_000);
      // And the dashboard read on B (the process's services are B's, provided last) shows what A wrote.
      const dashboard = await loadDashboard(
        new Request(`${appUrl}/dashboard?show=tasks`, { headers: { cookie: learner.cookie } }),
      );
      expect(dashboard.popup?.items).toHaveLength(5);
      await stream.close();
    } finally {
      await serverA.close();
      await serverB.close();
      await instanceA.dispose();
      await instanceB.dispose();
      await busA.close();
      await busB.close();
      await handleB.close();
    }
  });
});
