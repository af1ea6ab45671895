import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { handleAuthRequest } from "~/accounts/auth-handler.server";
import { createAuthFor, type Auth } from "~/accounts/auth.server";
import { loadConfig } from "~/config/config.server";
import { createLogger } from "~/logging/logger.server";
import { InProcessBus } from "~/realtime/bus.server";
import { userTopic, type RealtimeEvent } from "~/realtime/events";
import { handleStaffRequest, type StaffHttpDeps } from "~/staff/staff-http.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

const appUrl = "http://localhost:3999";

describeEachDatabase("staff endpoints", (database) => {
  let handle: TestDatabaseHandle;
  let auth: Auth;
  let deps: StaffHttpDeps;
  let bus: InProcessBus;
  let dataDir: string;
  let cookies: Record<"learner" | "staff" | "admin", string>;
  let ids: Record<"learner" | "staff" | "admin", string>;
  let ipCounter = 0;

  async function signUp(username: string, course = "Python"): Promise<{ id: string; cookie: string }> {
    const email = `${username.toLowerCase()}@example.com`;
    const response = await handleAuthRequest(
      auth,
      new Request(`${appUrl}/api/auth/sign-up/email`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: appUrl,
          "x-upskill-client-ip": `198.51.100.${++ipCounter}`,
        },
        body: JSON.stringify({
          username,
          phone: "9876543210",
          course,
          gender: "female",
          email,
          password: "correct-horse-1",
          confirmPassword: "correct-horse-1",
        }),
      }),
      appUrl,
    );
    expect(response.status).toBe(200);
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const user = await handle.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    return { id: user.id, cookie };
  }

  /** A learner row straight into the table (search tests need many, and no session). */
  async function addLearner(username: string, course: string | null, createdAt: string, role: string | null = null) {
    const id = randomUUID();
    await handle.db
      .insertInto("user")
      .values({
        id,
        name: username,
        username,
        email: `${id}@example.com`,
        emailVerified: false,
        image: null,
        createdAt,
        updatedAt: createdAt,
        phone: "9123456780",
        course,
        gender: "male",
        role,
      })
      .execute();
    return id;
  }

  function call(
    who: "anonymous" | "learner" | "staff" | "admin",
    method: string,
    endpoint: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const request = new Request(`${appUrl}/api/staff/${endpoint}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(method === "GET" ? {} : { origin: appUrl }),
        ...(who === "anonymous" ? {} : { cookie: cookies[who] }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return handleStaffRequest(deps, request, endpoint.split("?")[0]!);
  }

  beforeEach(async () => {
    handle = await database.open();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-staff-"));
    const config = loadConfig({ APP_URL: appUrl, DATA_DIR: dataDir, AUTH_RATE_LIMIT: "1000" });
    const logger = createLogger("silent");
    auth = await createAuthFor({
      db: handle.db,
      dialect: handle.dialect,
      config,
      logger,
    });
    bus = new InProcessBus();
    deps = { db: handle.db, bus, auth, appUrl };
    const learner = await signUp("Leena");
    const staff = await signUp("Suresh");
    const admin = await signUp("Anita");
    await handle.db.updateTable("user").set({ role: "mentor" }).where("id", "=", staff.id).execute();
    await handle.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
    cookies = { learner: learner.cookie, staff: staff.cookie, admin: admin.cookie };
    ids = { learner: learner.id, staff: staff.id, admin: admin.id };
  });
  afterEach(async () => {
    await handle.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers every endpoint by role: anonymous 401, learner 403, staff only the staff ones, admin all", async () => {
    type Row = [method: string, endpoint: string, body: unknown, need: "staff" | "admin"];
    const learnerId = () => ids.learner;
    const table: (() => Row)[] = [
      () => ["GET", "learners", undefined, "staff"],
      () => ["GET", `learners/${learnerId()}`, undefined, "staff"],
      () => ["GET", "courses", undefined, "staff"],
      () => ["GET", "count?course=Python", undefined, "staff"],
      () => ["POST", "send", { learnerId: learnerId(), kind: "notice", html: "<p>Hello</p>" }, "staff"],
      () => [
        "POST",
        "bulk-send",
        { search: "Leena", course: "", kind: "task", html: "Do it", expectedCount: 1 },
        "staff",
      ],
      () => ["POST", "clear", { learnerId: learnerId(), kind: "notice" }, "admin"],
      () => ["GET", `offer-letter/${learnerId()}`, undefined, "admin"],
      () => ["PUT", "offer-letter", { learnerId: learnerId(), html: "<p>Offer</p>" }, "admin"],
      () => ["GET", "audit", undefined, "admin"],
    ];
    for (const row of table) {
      const [method, endpoint, body, need] = row();
      const seen: Record<string, number> = {};
      for (const who of ["anonymous", "learner", "staff", "admin"] as const) {
        seen[who] = (await call(who, method, endpoint, body)).status;
      }
      expect({ endpoint, ...seen }).toEqual({
        endpoint,
        anonymous: 401,
        learner: 403,
        staff: need === "staff" ? 200 : 403,
        admin: 200,
      });
    }
    // The role change last: it turns its target into staff.
    const target = await addLearner("Promoted", "Java", new Date().toISOString());
    for (const who of ["anonymous", "learner", "staff"] as const) {
      const response = await call(who, "POST", "role", { userId: target, role: "mentor" });
      expect(response.status).toBe(who === "anonymous" ? 401 : 403);
    }
    expect((await call("admin", "POST", "role", { userId: target, role: "mentor" })).status).toBe(200);
    const promoted = await handle.db
      .selectFrom("user")
      .select("role")
      .where("id", "=", target)
      .executeTakeFirstOrThrow();
    expect(promoted.role).toBe("mentor");
  });

  it("tells staff exactly which clear they may not do, and clears nothing", async () => {
    await call("staff", "POST", "send", { learnerId: ids.learner, kind: "notice", html: "n" });
    for (const [kind, text] of [
      ["notice", "You do not have permission to clear notices."],
      ["task", "You do not have permission to clear tasks."],
      ["certificate", "You do not have permission to clear certificates."],
    ] as const) {
      const response = await call("staff", "POST", "clear", { learnerId: ids.learner, kind });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ message: text });
    }
    const left = await handle.db.selectFrom("message").select("id").where("learnerId", "=", ids.learner).execute();
    expect(left).toHaveLength(1);

    const cleared = await call("admin", "POST", "clear", { learnerId: ids.learner, kind: "notice" });
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toMatchObject({ ok: true, count: 1 });
    expect(await handle.db.selectFrom("message").select("id").where("learnerId", "=", ids.learner).execute()).toEqual(
      [],
    );
  });

  it("refuses a state change from a foreign Origin, even for an admin", async () => {
    const response = await call(
      "admin",
      "POST",
      "send",
      { learnerId: ids.learner, kind: "notice", html: "x" },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);
    expect(await handle.db.selectFrom("staff_audit").select("id").execute()).toEqual([]);
  });

  it("asks for a learner and for text with the exact messages", async () => {
    const none = await call("staff", "POST", "send", { learnerId: "", kind: "task", html: "x" });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ message: "Select a learner first." });
    for (const [kind, text] of [
      ["notice", "Please enter a notice."],
      ["task", "Please enter a task."],
      ["certificate", "Please enter a certificate."],
    ] as const) {
      for (const html of ["", "   ", "<script>alert(1)</script>"]) {
        const response = await call("staff", "POST", "send", { learnerId: ids.learner, kind, html });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ message: text });
      }
    }
    // A staff member is not a learner: nothing is sent to them.
    expect((await call("admin", "POST", "send", { learnerId: ids.staff, kind: "task", html: "x" })).status).toBe(404);
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);
  });

  it("sanitizes the HTML it stores and tells the learner after the row is there", async () => {
    const seen: { event: RealtimeEvent; stored: number }[] = [];
    const waiting: Promise<void>[] = [];
    bus.subscribe(userTopic(ids.learner), (event) => {
      waiting.push(
        handle.db
          .selectFrom("message")
          .select("id")
          .where("learnerId", "=", ids.learner)
          .execute()
          .then((rows) => void seen.push({ event, stored: rows.length })),
      );
    });
    const html =
      '<p onclick="x()">Hi <b>there</b></p><script>alert(1)</script><img src=x onerror=alert(1)>' +
      '<a href="javascript:alert(1)">bad</a><a href="https://example.com/a">good</a>';
    const response = await call("staff", "POST", "send", { learnerId: ids.learner, kind: "certificate", html });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, message: "Certificate sent successfully!" });
    const row = await handle.db.selectFrom("message").selectAll().executeTakeFirstOrThrow();
    expect(row.kind).toBe("certificate");
    expect(row.sentBy).toBe(ids.staff);
    expect(row.body).toContain("<b>there</b>");
    expect(row.body).toContain('href="https://example.com/a"');
    for (const bad of ["<script", "alert(1)", "onerror", "onclick", "javascript:", "<img"]) {
      expect(row.body).not.toContain(bad);
    }
    await Promise.all(waiting);
    expect(seen).toEqual([{ event: { type: "messages", kind: "certificate" }, stored: 1 }]);
  });

  it("searches usernames case-insensitively, with % and _ matched literally, and filters by course", async () => {
    const t = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString();
    await addLearner("Asha_Rao", "Python", t(1));
    await addLearner("ashaXRao", "Java", t(2));
    await addLearner("ASHA Patil", "Python", t(3));
    await addLearner("100% Ravi", "Java", t(4));
    await addLearner("Ravi", "VFX", t(5));
    await addLearner("back\\slash", "VFX", t(6));
    await addLearner("Asha Staff", "Python", t(7), "mentor");
    await addLearner("Asha Blank", "SEO", t(8), "");

    const names = async (query: string) => {
      const response = await call("staff", "GET", `learners?${query}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { learners: { username: string }[]; total: number };
      expect(page.total).toBe(page.learners.length);
      return page.learners.map((l) => l.username);
    };
    // Newest first; the empty-role user counts as a learner, the mentor does not.
    expect(await names("search=asha")).toEqual(["Asha Blank", "ASHA Patil", "ashaXRao", "Asha_Rao"]);
    expect(await names("search=ASHA_")).toEqual(["Asha_Rao"]);
    expect(await names("search=_")).toEqual(["Asha_Rao"]);
    expect(await names("search=%25")).toEqual(["100% Ravi"]);
    expect(await names("search=%5C")).toEqual(["back\\slash"]);
    expect(await names("search=ravi&course=Java")).toEqual(["100% Ravi"]);
    // Leena signed up (now) on Python.
    expect(await names("course=Python")).toEqual(["Leena", "ASHA Patil", "Asha_Rao"]);
    expect(await names("search=nobody")).toEqual([]);
    expect(await names("search=%20%20")).toHaveLength(8);
    expect(await names("")).toHaveLength(8);
    // A search too long to be a name is refused, not run.
    const long = await call("staff", "GET", `learners?search=${"a".repeat(201)}`);
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ message: "The search is too long." });

    const courses = await (await call("staff", "GET", "courses")).json();
    expect(courses).toEqual({ courses: ["Java", "Python", "SEO", "VFX"] });
    expect(await (await call("staff", "GET", "count?search=asha&course=Python")).json()).toEqual({ count: 2 });
  });

  it("pages through learners newest first", async () => {
    const base = Date.UTC(2024, 0, 1);
    for (let i = 0; i < 45; i++) await addLearner(`learner${i}`, "Python", new Date(base + i * 1000).toISOString());
    const page = async (n: number) =>
      (await (await call("admin", "GET", `learners?course=Python&page=${n}`)).json()) as {
        learners: { username: string }[];
        total: number;
        page: number;
        pages: number;
      };
    const first = await page(1);
    // 45 added plus the three signed up (two of them staff): the learner Leena is on Python too.
    expect(first).toMatchObject({ total: 46, page: 1, pages: 3 });
    expect(first.learners[0]!.username).toBe("Leena");
    expect(first.learners[1]!.username).toBe("learner44");
    const third = await page(3);
    expect(third.learners.map((l) => l.username)).toEqual([
      "learner5",
      "learner4",
      "learner3",
      "learner2",
      "learner1",
      "learner0",
    ]);
    expect((await page(99)).page).toBe(3);
  });

  it("bulk-sends to exactly the learners the search and filter match, after checking the count", async () => {
    const now = new Date().toISOString();
    const python = [await addLearner("Kiran One", "Python", now), await addLearner("kiran two", "Python", now)];
    await addLearner("Kiran Java", "Java", now);
    await addLearner("Meera", "Python", now);
    await addLearner("Kiran Mentor", "Python", now, "mentor");

    const count = await (await call("staff", "GET", "count?search=kiran&course=Python")).json();
    expect(count).toEqual({ count: 2 });

    const stale = await call("staff", "POST", "bulk-send", {
      search: "kiran",
      course: "Python",
      kind: "task",
      html: "<p>Week 1</p>",
      expectedCount: 3,
    });
    expect(stale.status).toBe(409);
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);

    const told: string[] = [];
    for (const id of [...python, ids.learner]) bus.subscribe(userTopic(id), () => told.push(id));
    const response = await call("staff", "POST", "bulk-send", {
      search: "kiran",
      course: "Python",
      kind: "task",
      html: "<p>Week 1</p><script>x</script>",
      expectedCount: 2,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, message: "Task sent to 2 learners.", count: 2 });
    const rows = await handle.db.selectFrom("message").select(["learnerId", "kind", "body"]).execute();
    expect(rows.map((r) => r.learnerId).sort()).toEqual([...python].sort());
    expect(rows.every((r) => r.kind === "task" && r.body === "<p>Week 1</p>")).toBe(true);
    expect(told.sort()).toEqual([...python].sort());

    const audit = await (await call("admin", "GET", "audit")).json();
    expect(audit.entries[0]).toMatchObject({
      actorName: "Suresh",
      action: "bulk-send",
      detail: "task",
      target: 'Learners in course "Python", username containing "kiran"',
      count: 2,
    });
  });

  it("records every staff action in the audit log, newest first, only when the action happened", async () => {
    const learner = ids.learner;
    await call("staff", "POST", "send", { learnerId: learner, kind: "notice", html: "<p>n</p>" });
    await call("admin", "POST", "send", { learnerId: learner, kind: "task", html: "<p>t</p>" });
    await call("admin", "POST", "clear", { learnerId: learner, kind: "notice" });
    await call("staff", "POST", "clear", { learnerId: learner, kind: "task" }); // refused: not logged
    await call("admin", "PUT", "offer-letter", { learnerId: learner, html: "<p>Offer</p>" });
    await call("admin", "POST", "bulk-send", {
      search: "",
      course: "",
      kind: "certificate",
      html: "c",
      expectedCount: 1,
    });
    await call("admin", "POST", "role", { userId: ids.staff, role: "none" });

    const response = await call("admin", "GET", "audit");
    const { entries } = (await response.json()) as { entries: Record<string, unknown>[] };
    expect(entries.map((e) => [e.actorName, e.action, e.detail, e.target, e.count])).toEqual([
      ["Anita", "role-change", "none", "Suresh", 1],
      ["Anita", "bulk-send", "certificate", "Learners in all courses", 1],
      ["Anita", "offer-letter", null, "Leena", 1],
      ["Anita", "clear", "notice", "Leena", 1],
      ["Anita", "send", "task", "Leena", 1],
      ["Suresh", "send", "notice", "Leena", 1],
    ]);
    const times = entries.map((e) => String(e.createdAt));
    expect([...times].sort().reverse()).toEqual(times);

    const offer = await (await call("admin", "GET", `offer-letter/${learner}`)).json();
    expect(offer.offerLetter.html).toBe("<p>Offer</p>");
    // Suresh is a learner now: the staff endpoints refuse him.
    expect((await call("staff", "GET", "learners")).status).toBe(403);
    // The admin cannot demote themself (and lock everyone out).
    expect((await call("admin", "POST", "role", { userId: ids.admin, role: "none" })).status).toBe(400);
  });

  it("keeps only the latest 200 in the admin's view", async () => {
    const actor = { id: ids.admin, name: "Anita", role: "admin" };
    const { recordAudit } = await import("~/staff/audit.server");
    for (let i = 0; i < 205; i++) {
      await recordAudit(handle.db, actor, {
        action: "send",
        detail: "notice",
        targetId: null,
        target: `t${i}`,
        count: 1,
      });
    }
    const { entries } = (await (await call("admin", "GET", "audit")).json()) as { entries: { target: string }[] };
    expect(entries).toHaveLength(200);
    expect(entries[0]!.target).toBe("t204");
    expect(entries[199]!.target).toBe("t5");
  });

  it("returns one learner's card with links, counts and resume for live updates", async () => {
    await handle.db
      .insertInto("task_link")
      .values({
        id: randomUUID(),
        learnerId: ids.learner,
        link: "https://github.com/leena/app",
        createdAt: new Date().toISOString(),
      })
      .execute();
    await call("staff", "POST", "send", { learnerId: ids.learner, kind: "task", html: "t" });
    const { learner } = await (await call("staff", "GET", `learners/${ids.learner}`)).json();
    expect(learner).toMatchObject({
      id: ids.learner,
      username: "Leena",
      email: "leena@example.com",
      phone: "9876543210",
      course: "Python",
      gender: "female",
      photoUrl: null,
      resume: null,
      counts: { notice: 0, task: 1, certificate: 0 },
      taskLinks: [{ link: "https://github.com/leena/app" }],
    });
    expect((await call("staff", "GET", `learners/${ids.staff}`)).status).toBe(404);
  });

  it("announces a new sign-up once the account exists, for the staff view's live list", async () => {
    const announced: { id: string; exists: boolean }[] = [];
    const waiting: Promise<void>[] = [];
    const config = loadConfig({ APP_URL: appUrl, DATA_DIR: dataDir, AUTH_RATE_LIMIT: "1000" });
    const logger = createLogger("silent");
    auth = await createAuthFor({
      db: handle.db,
      dialect: handle.dialect,
      config,
      logger,
      onSignUp: (id) =>
        void waiting.push(
          handle.db
            .selectFrom("user")
            .select("id")
            .where("id", "=", id)
            .executeTakeFirst()
            .then((row) => void announced.push({ id, exists: row !== undefined })),
        ),
    });
    const { id } = await signUp("Nikhil");
    await Promise.all(waiting);
    expect(announced).toEqual([{ id, exists: true }]);
  });
});
