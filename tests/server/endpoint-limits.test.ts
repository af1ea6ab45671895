import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { taskLinkMessages } from "~/learners/task-link-rules";
import { addTaskLink } from "~/learners/task-links.server";
import { messagePageSize } from "~/messages/messages.server";
import { tooManyRequests, writeLimits } from "~/security/rate-limit.server";
import { createLogger } from "~/logging/logger.server";
import { InProcessBus } from "~/realtime/bus.server";
import { handleStaffRequest } from "~/staff/staff-http.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, type Harness, type Learner } from "./learner-harness";

describeEachDatabase("endpoint limits", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let learner: Learner;
  let admin: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    learner = await h.signUp("leena");
    admin = await h.signUp("anita");
    await handle.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const staff = (method: string, endpoint: string, body?: unknown) =>
    handleStaffRequest(
      { db: handle.db, bus: new InProcessBus(createLogger("silent")), auth: h.auth, appUrl },
      new Request(`${appUrl}/api/staff/${endpoint}`, {
        method,
        headers: {
          cookie: admin.cookie,
          ...(method === "GET" ? {} : { origin: appUrl, "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      endpoint.split("?")[0]!,
    );

  const insertMessages = async (count: number, body: string) => {
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      learnerId: learner.id,
      kind: "notice" as const,
      body,
      sentBy: null,
      sentAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      readAt: null,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await handle.db
        .insertInto("message")
        .values(rows.slice(i, i + 100))
        .execute();
  };

  it("serves stored messages as stored (sanitized once, when sent) and fast at their largest", async () => {
    // A body written straight into the table comes back byte for byte: nothing runs on read.
    await insertMessages(1, "<p>as <b>stored</b><!-- kept --></p>");
    const one = await h.call(learner, "GET", "/api/learner/messages?kind=notice");
    expect(((await one.json()) as { messages: { html: string }[] }).messages[0]!.html).toBe(
      "<p>as <b>stored</b><!-- kept --></p>",
    );

    await insertMessages(99, `<p>${"<b>x</b> ".repeat(2_200)}</p>`.slice(0, 20_000));
    const started = performance.now();
    const page = await h.call(learner, "GET", "/api/learner/messages?kind=notice");
    expect(page.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("pages messages newest first with a cursor, and refuses a cursor it didn't make", async () => {
    await insertMessages(120, "<p>n</p>");
    const seen: string[] = [];
    let before: string | null = null;
    const sizes: number[] = [];
    do {
      const query: string = before ? `&before=${encodeURIComponent(before)}` : "";
      const response = await h.call(learner, "GET", `/api/learner/messages?kind=notice${query}`);
      const page = (await response.json()) as { messages: { id: string; sentAt: string }[]; older: string | null };
      sizes.push(page.messages.length);
      seen.push(...page.messages.map((m) => m.sentAt));
      before = page.older;
    } while (before);
    expect(sizes).toEqual([messagePageSize, messagePageSize, 120 - 2 * messagePageSize]);
    expect(new Set(seen).size).toBe(120);
    expect([...seen].sort().reverse()).toEqual(seen);
    for (const bad of ["nonsense", "\u0000_x", "x".repeat(500)]) {
      const refused = await h.call(
        learner,
        "GET",
        `/api/learner/messages?kind=notice&before=${encodeURIComponent(bad)}`,
      );
      expect(refused.status).toBe(400);
    }
  });

  it("refuses a message longer than the stored limit, per kind, and sends nothing", async () => {
    const long = `<p>${"a".repeat(20_001)}</p>`;
    const send = await staff("POST", "send", { learnerId: learner.id, kind: "task", html: long });
    expect(send.status).toBe(400);
    expect(await send.json()).toMatchObject({
      message: "That task is too long: at most 20,000 characters once formatted.",
    });
    const letter = await staff("PUT", "offer-letter", { learnerId: learner.id, html: long });
    expect(letter.status).toBe(400);
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);
  });

  it("keeps at most 100 task links per learner", async () => {
    for (let i = 0; i < 100; i++) {
      await handle.db
        .insertInto("task_link")
        .values({
          id: randomUUID(),
          learnerId: learner.id,
          link: `https://x.example/${i}`,
          createdAt: "2026-01-01T00:00:00.000Z",
        })
        .execute();
    }
    const refused = await h.call(learner, "POST", "/api/learner/task-links", {
      json: { link: "https://x.example/101" },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: taskLinkMessages.tooMany });
    const count = await handle.db.selectFrom("task_link").select("id").where("learnerId", "=", learner.id).execute();
    expect(count).toHaveLength(100);
  });

  it("holds the task-link cap under concurrent adds", async () => {
    const deps = { db: handle.db, bus: new InProcessBus(createLogger("silent")) };
    for (let i = 0; i < 95; i++) await addTaskLink(deps, learner.id, `https://x.example/${i}`);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => addTaskLink(deps, learner.id, `https://x.example/more-${i}`)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const count = await handle.db.selectFrom("task_link").select("id").where("learnerId", "=", learner.id).execute();
    expect(count).toHaveLength(100);
  });

  it("rate-limits a learner's changes and a staff member's bulk sends, in the database", async () => {
    for (let i = 0; i < writeLimits.learner.max; i++) {
      const response = await h.call(learner, "POST", "/api/learner/notices/read");
      expect(response.status).toBe(200);
    }
    const refused = await h.call(learner, "POST", "/api/learner/task-links", { json: { link: "https://x.example" } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ message: tooManyRequests });
    // Reading is never limited.
    expect((await h.call(learner, "GET", "/api/learner/state")).status).toBe(200);

    for (let i = 0; i < writeLimits.bulkSend.max; i++) {
      const response = await staff("POST", "bulk-send", { kind: "notice", html: "", expectedCount: 0 });
      expect(response.status).toBe(400);
    }
    expect((await staff("POST", "bulk-send", { kind: "notice", html: "<p>hi</p>", expectedCount: 1 })).status).toBe(
      429,
    );
  });

  it("answers control characters and oversized values with 4xx on every learner and staff input", async () => {
    const learnerCalls: [string, string, unknown?][] = [
      ["POST", "/api/learner/task-links", { link: "https://x.example/\u0000" }],
      ["DELETE", "/api/learner/task-links/%00"],
      ["DELETE", `/api/learner/task-links/${"x".repeat(300)}`],
      ["GET", "/api/learner/resume?learner=%00"],
      ["GET", "/api/learner/messages?kind=notice%00"],
    ];
    for (const [method, path, json] of learnerCalls) {
      const response = await h.call(learner, method, path, json === undefined ? {} : { json });
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
    }
    const staffCalls: [string, string, unknown?][] = [
      ["GET", "learners?search=%00"],
      ["GET", "learners?course=a%00b"],
      ["GET", `learners?search=${"p".repeat(201)}`],
      ["GET", "count?search=%00"],
      ["GET", "learners/%00"],
      ["GET", "offer-letter/%00"],
      ["POST", "send", { learnerId: "\u0000", kind: "notice", html: "<p>x</p>" }],
      ["POST", "send", { learnerId: learner.id, kind: "notice", html: "<p>\u0000</p>" }],
      ["POST", "send", { learnerId: ["a"], kind: "notice", html: {} }],
      ["POST", "clear", { learnerId: "\u0000", kind: "task" }],
      ["PUT", "offer-letter", { learnerId: learner.id, html: "\u0007" }],
      ["POST", "role", { userId: learner.id, role: "adm\u0000in" }],
      ["POST", "role", { userId: "\u0000", role: "staff" }],
      ["POST", "bulk-send", { kind: "notice", html: "<p>x</p>", expectedCount: 1e300, search: "\u0000" }],
    ];
    for (const [method, endpoint, body] of staffCalls) {
      const response = await staff(method, endpoint, body);
      expect(response.status, `${method} ${endpoint}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${method} ${endpoint}`).toBeLessThan(500);
    }
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);
  });
});
