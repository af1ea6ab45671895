import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { taskLinkMessages } from "~/learners/task-link-rules";
import { addTaskLink } from "~/learners/task-links.server";
import type { DashboardData } from "~/dashboard/dashboard-page.server";
import { maxMessagePages, messagePageSize } from "~/messages/kinds";
import { tooManyRequests, writeLimits } from "~/security/rate-limit.server";
import { createLogger } from "~/logging/logger.server";
import { InProcessBus } from "~/realtime/bus.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness, type Learner } from "../support/test-app";

describeEachDatabase("limits of the signed-in pages", (database) => {
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

  const staff = (fields: Record<string, string>) => h.act(admin, "/staff", fields);
  const popup = async (address: string) => {
    const page = await h.load<DashboardData>(learner, address);
    expect(page.status, address).toBe(200);
    return page.data.popup!;
  };

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
    expect((await popup("/dashboard?show=notices")).items[0]!.html).toBe("<p>as <b>stored</b><!-- kept --></p>");

    await insertMessages(99, `<p>${"<b>x</b> ".repeat(2_200)}</p>`.slice(0, 20_000));
    const started = performance.now();
    expect((await popup("/dashboard?show=notices&pages=2")).items).toHaveLength(100);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("shows messages newest first a page at a time, and never more than its most pages", async () => {
    await insertMessages(120, "<p>n</p>");
    const first = await popup("/dashboard?show=notices");
    expect([first.items.length, first.more, first.pages]).toEqual([messagePageSize, true, 1]);
    const all = await popup("/dashboard?show=notices&pages=3");
    expect([all.items.length, all.more]).toEqual([120, false]);
    const dates = all.items.map((item) => item.date);
    expect(new Set(dates).size).toBe(120);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(all.items.slice(0, messagePageSize)).toEqual(first.items);
    // Nonsense and huge page counts read one page, or the most pages; never an error.
    expect((await popup("/dashboard?show=notices&pages=nonsense")).pages).toBe(1);
    expect((await popup("/dashboard?show=notices&pages=-4")).pages).toBe(1);
    expect((await popup("/dashboard?show=notices&pages=99999999999")).pages).toBe(maxMessagePages);
  });

  it("refuses a message longer than the stored limit, per kind, and sends nothing", async () => {
    const long = `<p>${"a".repeat(20_001)}</p>`;
    const send = await staff({ intent: "send", learnerId: learner.id, kind: "task", html: long });
    expect(send.status).toBe(400);
    expect(send.data.message).toBe("That task is too long: at most 20,000 characters once formatted.");
    const letter = await staff({ intent: "save-offer-letter", learnerId: learner.id, html: long });
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
    const refused = await h.act(learner, "/dashboard", { intent: "add-task-link", link: "https://x.example/101" });
    expect(refused.status).toBe(400);
    expect(refused.data.message).toBe(taskLinkMessages.tooMany);
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
      const marked = await h.act(learner, "/dashboard", { intent: "mark-read", kind: "task", ids: randomUUID() });
      expect(marked.status).toBe(200);
    }
    const refused = await h.act(learner, "/dashboard", { intent: "add-task-link", link: "https://x.example" });
    expect(refused.status).toBe(429);
    expect(refused.data.message).toBe(tooManyRequests);
    // Uploads count too; reading is never limited.
    expect((await h.call(learner, "POST", "/api/learner/photo", { body: Buffer.from("x") })).status).toBe(429);
    expect((await h.load(learner, "/dashboard")).status).toBe(200);

    const bulk = { intent: "bulk-send", search: "", course: "", kind: "notice" };
    for (let i = 0; i < writeLimits.bulkSend.max; i++) {
      expect((await staff({ ...bulk, html: "", expectedCount: "0" })).status).toBe(400);
    }
    expect((await staff({ ...bulk, html: "<p>hi</p>", expectedCount: "1" })).status).toBe(429);
  });

  it("answers control characters and oversized values with 4xx on every learner and staff input, never 5xx", async () => {
    const learnerForms: Record<string, string>[] = [
      { intent: "add-task-link", link: "https://x.example/\u0000" },
      { intent: "delete-task-link", id: "\u0000" },
      { intent: "delete-task-link", id: "x".repeat(300) },
      { intent: "add\u0000" },
      { intent: "update-profile", phone: "98765\u00003210", course: "Python" },
      { intent: "update-profile", phone: "9876543210", course: "Python\u0000" },
      { intent: "update-profile", phone: "9".repeat(300_000), course: "Python".repeat(50_000) },
      {
        intent: "change-password",
        currentPassword: "correct-horse-1",
        newPassword: "new-secret\u000099",
        confirmPassword: "new-secret\u000099",
      },
      { intent: "mark-read", kind: "notice", ids: "\u0000" },
      { intent: "mark-read", kind: "notice\u0000", ids: "x" },
      { intent: "mark-read", kind: "task", ids: "x".repeat(500_000) },
    ];
    for (const fields of learnerForms) {
      const settings = ["update-profile", "change-password"].includes(fields.intent!);
      const answer = await h.act(learner, settings ? "/settings" : "/dashboard", fields);
      // Deleting what doesn't exist is fine (200); nothing else may pass, and nothing may fail.
      expect(answer.status, JSON.stringify(fields)).toBeLessThan(500);
      if (fields.intent !== "delete-task-link")
        expect(answer.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
    }
    expect((await h.call(learner, "GET", "/api/learner/resume?learner=%00")).status).toBe(404);
    for (const address of ["/dashboard?show=notices%00", "/dashboard?pages=%00"]) {
      expect((await h.load(learner, address)).status, address).toBe(200);
    }
    for (const address of [
      "/staff?q=%00",
      "/staff?course=a%00b",
      `/staff?q=${"p".repeat(201)}`,
      "/staff?selected=%00",
      "/staff?view=a%00b",
      "/staff/learners/%00",
      "/staff/batches/no-batch%00",
    ]) {
      const answer = await h.load(admin, address);
      expect(answer.status, address).toBeGreaterThanOrEqual(400);
      expect(answer.status, address).toBeLessThan(500);
    }
    const staffForms: Record<string, string>[] = [
      { intent: "send", learnerId: "\u0000", kind: "notice", html: "<p>x</p>" },
      { intent: "send", learnerId: learner.id, kind: "notice", html: "<p>\u0000</p>" },
      { intent: "send", learnerId: learner.id, kind: "notice\u0000", html: "<p>x</p>" },
      { intent: "clear", learnerId: "\u0000", kind: "task" },
      { intent: "save-offer-letter", learnerId: learner.id, html: "\u0007" },
      { intent: "change-role", userId: learner.id, role: "adm\u0000in" },
      { intent: "change-role", userId: "\u0000", role: "staff" },
      { intent: "bulk-send", kind: "notice", html: "<p>x</p>", expectedCount: "1e300", search: "\u0000" },
      { intent: "bulk-send", kind: "notice", html: "<p>x</p>", expectedCount: "many" },
      { intent: "send-selected", kind: "notice", html: "<p>x</p>", learnerIds: `${learner.id},\u0000` },
      { intent: "send-selected", kind: "notice", html: "<p>x</p>", learnerIds: ",".repeat(200_000) },
      { intent: "preview", kind: "task", html: "x".repeat(100_001) },
      { intent: "preview", kind: "task", html: "\u0000" },
    ];
    for (const fields of staffForms) {
      const answer = await staff(fields);
      expect(answer.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(fields)).toBeLessThan(500);
    }
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);
  });
});
