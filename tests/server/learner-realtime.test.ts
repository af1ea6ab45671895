import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadDashboard, type DashboardData } from "~/dashboard/dashboard-page.server";
import { addTaskLink } from "~/learners/task-links.server";
import { sendMessage, setOfferLetter } from "~/messages/messages.server";
import { provideServices } from "~/platform/services.server";
import { InProcessBus, PostgresBus, type EventBus } from "~/realtime/bus.server";
import { maxStreamsPerUser, type RealtimeEvent } from "~/realtime/events";
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
    // Topics subscribed to; the services' own (the kept public aggregates follow staff's) stay.
    const counted = () => (h.bus as unknown as { subscribers: { size: number } }).subscribers.size;
    const before = counted();
    const a = await openStream(server.url, first.cookie);
    expect(counted()).toBe(before + 1);
    await a.close();
    const deadline = Date.now() + 2_000;
    while (counted() > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(counted()).toBe(before);
  });

  it("tells every open tab of the learner, and only theirs, when something is read, within a second", async () => {
    const deps = { db: handle.db, bus: h.bus };
    await sendMessage(deps, { learnerId: first.id, kind: "certificate", html: "<p>c</p>", sentBy: null });
    await setOfferLetter(deps, { learnerId: first.id, html: "<p>offer</p>", updatedBy: null });
    const tabs = [await openStream(server.url, first.cookie), await openStream(server.url, first.cookie)];
    const other = await openStream(server.url, second.cookie);
    const popup = async (show: string) =>
      (await h.load<{ popup: { items: { id: string }[] } }>(first, `/dashboard?show=${show}`)).data.popup.items;

    for (const [kind, show, event] of [
      ["certificate", "certificates", { type: "messages", kind: "certificate" }],
      ["offer", "offer-letter", { type: "offer-letter" }],
    ] as const) {
      const ids = (await popup(show)).map((item) => item.id).join(" ");
      for (const tab of tabs) tab.received.length = 0;
      const started = Date.now();
      expect((await h.act(first, "/dashboard", { intent: "mark-read", kind, ids })).status).toBe(200);
      for (const tab of tabs) {
        const got = await tab.waitFor((r) => r.data?.type === event.type);
        expect(got.data).toEqual(event);
        expect(got.at - started).toBeLessThan(1_000);
      }
      // Marking again changes nothing, and tells no one.
      for (const tab of tabs) tab.received.length = 0;
      expect((await h.act(first, "/dashboard", { intent: "mark-read", kind, ids })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      for (const tab of tabs) expect(tab.received.filter((r) => r.event === "message")).toEqual([]);
    }
    expect(other.received.filter((r) => r.event === "message")).toEqual([]);
    for (const stream of [...tabs, other]) await stream.close();
  });

  /** Two app instances on one PostgreSQL database: what one does reaches the other's streams. */
  const onPostgres = database.dialect === "postgres";
  (onPostgres ? it : it.skip)(
    onPostgres
      ? "carries a staff send and a learner's mark-read from one instance to the other's streams within a second"
      : "two instances sharing events: skipped, since only PostgreSQL (LISTEN/NOTIFY) connects instances",
    async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const channel = `upskill_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
      const busA = new PostgresBus({ connectionString: url, channel });
      const busB = new PostgresBus({ connectionString: url, channel });
      await Promise.all([busA.ready(), busB.ready()]);
      const handleB = await handle.reopen();
      const instanceA = await createHarness(handle, { bus: busA });
      const instanceB = await createHarness({ ...handle, db: handleB.db }, { bus: busB });
      const serverA = await instanceA.listen();
      const serverB = await instanceB.listen();
      try {
        const learner = await instanceA.signUp("reader");
        const admin = await instanceA.signUp("sender");
        await instanceA.setRole(admin, "admin");
        // The learner has a tab on each instance.
        const onB = await openStream(serverB.url, learner.cookie);
        const onA = await openStream(serverA.url, learner.cookie);
        const expectBoth = async (type: string, started: number) => {
          for (const stream of [onB, onA]) {
            const got = await stream.waitFor((r) => r.data?.type === type);
            expect(got.at - started, `${type} on ${stream === onB ? "B" : "A"}`).toBeLessThan(1_000);
          }
          onA.received.length = 0;
          onB.received.length = 0;
        };

        // Staff send through instance A (its services handle the request).
        provideServices(instanceA.services);
        let started = Date.now();
        const sent = await instanceA.act(admin, "/staff", {
          intent: "send",
          learnerId: learner.id,
          kind: "task",
          html: "<p>From A</p>",
        });
        expect(sent.status).toBe(200);
        await expectBoth("messages", started);
        started = Date.now();
        const letter = await instanceA.act(admin, "/staff", {
          intent: "save-offer-letter",
          learnerId: learner.id,
          html: "<p>Offer from A</p>",
        });
        expect(letter.status).toBe(200);
        await expectBoth("offer-letter", started);

        // The learner reads on instance B; the tab on A hears it.
        provideServices(instanceB.services);
        const tasks = (await instanceB.load<DashboardData>(learner, "/dashboard?show=tasks")).data.popup!;
        expect(tasks.items.map((item) => [item.html, item.sentBy, item.read])).toEqual([
          ["<p>From A</p>", "sender", false],
        ]);
        started = Date.now();
        const marked = await instanceB.act(learner, "/dashboard", {
          intent: "mark-read",
          kind: "task",
          ids: tasks.items[0]!.id,
        });
        expect(marked.status).toBe(200);
        await expectBoth("messages", started);
        expect((await instanceA.load<DashboardData>(learner, "/dashboard")).data.learner.unread).toEqual({
          notice: 0,
          task: 0,
          certificate: 0,
          offer: 1,
        });
        await onA.close();
        await onB.close();
      } finally {
        await serverA.close();
        await serverB.close();
        await instanceA.dispose();
        await instanceB.dispose();
        await busA.close();
        await busB.close();
        await handleB.close();
      }
    },
  );

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

describeEachDatabase("publishing many events at once", (database) => {
  const buses: [string, () => Promise<EventBus>][] = [["in-process", async () => new InProcessBus()]];
  if (database.dialect === "postgres") {
    buses.push([
      "LISTEN/NOTIFY",
      async () => {
        const channel = `upskill_test_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
        const bus = new PostgresBus({ connectionString: process.env.TEST_DATABASE_URL!, channel });
        await bus.ready();
        return bus;
      },
    ]);
  }
  for (const [name, open] of buses) {
    it(`delivers each of 1,201 events to its topic's subscribers, in order (${name})`, async () => {
      const bus = await open();
      try {
        const got = new Map<string, number[]>();
        for (const topic of ["a", "b", "c"]) {
          bus.subscribe(topic, (event) => {
            if (event.type === "learners-imported") got.set(topic, [...(got.get(topic) ?? []), event.count]);
          });
        }
        // More than one batch of NOTIFYs, spread over three topics.
        const events = Array.from(
          { length: 1_201 },
          (_, i) => [["a", "b", "c"][i % 3]!, { type: "learners-imported", count: i }] as const,
        );
        await bus.publishMany(events);
        await expect.poll(() => [...got.values()].reduce((n, counts) => n + counts.length, 0)).toBe(1_201);
        for (const topic of ["a", "b", "c"]) {
          expect(got.get(topic)).toEqual(events.filter(([t]) => t === topic).map(([, e]) => e.count));
        }
      } finally {
        await bus.close();
      }
    });
  }
});
