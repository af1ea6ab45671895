import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { DashboardData } from "~/dashboard/dashboard-page.server";
import { userTopic, staffTopic, type RealtimeEvent } from "~/realtime/events";
import type { loadAudit, loadLearnerPage, loadPeople, loadStaffWorkspace } from "~/staff/staff-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness, type Learner } from "../support/test-app";

type Workspace = Awaited<ReturnType<typeof loadStaffWorkspace>>;
type LearnerPageData = Awaited<ReturnType<typeof loadLearnerPage>>;
type AuditData = Awaited<ReturnType<typeof loadAudit>>;
type PeopleData = Awaited<ReturnType<typeof loadPeople>>;
type Who = "anonymous" | "learner" | "other" | "staff" | "admin";

describeEachDatabase("staff pages: loaders and intents", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let people: Record<Exclude<Who, "anonymous">, Learner>;

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

  const user = (who: Who) => (who === "anonymous" ? null : people[who]);
  const act = (who: Who, fields: Record<string, string>, address = "/staff") => h.act(user(who), address, fields);
  const workspace = async (who: Who, query = "") => {
    const page = await h.load<Workspace>(user(who), `/staff${query ? `?${query}` : ""}`);
    expect(page.status, `/staff?${query} as ${who}`).toBe(200);
    return page.data;
  };
  const audit = async () => (await h.load<AuditData>(people.admin, "/staff/audit")).data.page.entries;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    people = {
      learner: await h.signUp("Leena"),
      other: await h.signUp("Omkar", { course: "Java" }),
      staff: await h.signUp("Suresh"),
      admin: await h.signUp("Anita"),
    };
    await h.setRole(people.staff, "mentor");
    await h.setRole(people.admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  it("serves each page by role: anonymous to the login, learners a 403 page, the audit log to admins only", async () => {
    const pages = [
      ["/staff?q=lee&course=Python&page=1", "staff"],
      [`/staff/learners/${people.learner.id}`, "staff"],
      ["/staff/audit", "admin"],
    ] as const;
    for (const [address, need] of pages) {
      const seen: Record<string, number> = {};
      for (const who of ["anonymous", "learner", "other", "staff", "admin"] as const) {
        seen[who] = (await h.load(user(who), address)).status;
      }
      expect({ address, ...seen }).toEqual({
        address,
        anonymous: 302,
        learner: 403,
        other: 403,
        staff: need === "staff" ? 200 : 403,
        admin: 200,
      });
      const anonymous = await h.load(null, address);
      expect(anonymous.location).toBe(`/?auth=login&redirectTo=${encodeURIComponent(address)}`);
      const refused = await h.load<{ message: string }>(people.learner, address);
      expect(refused.data.message).toBe("You do not have access to this page.");
    }
    // The offer letter comes with the learner's page for admins only.
    const asStaff = await h.load<LearnerPageData>(people.staff, `/staff/learners/${people.learner.id}`);
    expect(asStaff.data.offerLetter).toBeNull();
    // Staff and unknown ids are not learners' pages.
    for (const id of [people.staff.id, randomUUID(), "x".repeat(201)]) {
      expect((await h.load(people.admin, `/staff/learners/${encodeURIComponent(id)}`)).status).toBe(404);
    }
  });

  it("answers every intent by role: anonymous 401, learners 403, staff only the staff ones, admins all", async () => {
    const learnerId = people.learner.id;
    const rows: [Record<string, string>, "staff" | "admin"][] = [
      [{ intent: "send", learnerId, kind: "notice", html: "<p>Hello</p>" }, "staff"],
      [{ intent: "bulk-send", search: "Omkar", course: "", kind: "task", html: "Do it", expectedCount: "1" }, "staff"],
      [{ intent: "send-selected", learnerIds: people.other.id, kind: "task", html: "Do it" }, "staff"],
      [{ intent: "preview", kind: "notice", html: "Hello" }, "staff"],
      [{ intent: "clear", learnerId, kind: "notice" }, "admin"],
      [{ intent: "save-offer-letter", learnerId, html: "<p>Offer</p>" }, "admin"],
    ];
    for (const [fields, need] of rows) {
      const seen: Record<string, number> = {};
      for (const who of ["anonymous", "learner", "other", "staff", "admin"] as const) {
        seen[who] = (await act(who, fields)).status;
      }
      expect({ intent: fields.intent, ...seen }).toEqual({
        intent: fields.intent,
        anonymous: 401,
        learner: 403,
        other: 403,
        staff: need === "staff" ? 200 : 403,
        admin: 200,
      });
    }
    expect((await act("learner", rows[0]![0])).data.message).toBe("Only staff can do this.");
    expect((await act("staff", rows[5]![0])).data.message).toBe("Only an admin can do this.");
    // Any staff page takes the same intents.
    expect((await act("staff", rows[0]![0], `/staff/learners/${learnerId}`)).status).toBe(200);
    // The role change last: it turns its target into staff.
    const target = await addLearner("Promoted", "Java", new Date().toISOString());
    for (const who of ["anonymous", "learner", "staff"] as const) {
      const refused = await act(who, { intent: "change-role", userId: target, role: "mentor" });
      expect(refused.status).toBe(who === "anonymous" ? 401 : 403);
    }
    expect((await act("admin", { intent: "change-role", userId: target, role: "mentor" })).status).toBe(200);
    const promoted = await handle.db
      .selectFrom("user")
      .select("role")
      .where("id", "=", target)
      .executeTakeFirstOrThrow();
    expect(promoted.role).toBe("mentor");
    expect((await act("admin", { intent: "no-such-intent" })).status).toBe(400);
  });

  it("tells staff exactly which clear they may not do, and clears nothing", async () => {
    await act("staff", { intent: "send", learnerId: people.learner.id, kind: "notice", html: "n" });
    for (const [kind, text] of [
      ["notice", "You do not have permission to clear notices."],
      ["task", "You do not have permission to clear tasks."],
      ["certificate", "You do not have permission to clear certificates."],
    ] as const) {
      const refused = await act("staff", { intent: "clear", learnerId: people.learner.id, kind });
      expect(refused.status).toBe(403);
      expect(refused.data).toEqual({ ok: false, message: text });
    }
    const left = await handle.db
      .selectFrom("message")
      .select("id")
      .where("learnerId", "=", people.learner.id)
      .execute();
    expect(left).toHaveLength(1);
    const cleared = await act("admin", { intent: "clear", learnerId: people.learner.id, kind: "notice" });
    expect(cleared.data).toMatchObject({ ok: true, count: 1, message: "Notices cleared." });
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);
  });

  it("asks for a learner and for text with the exact messages", async () => {
    const none = await act("staff", { intent: "send", learnerId: "", kind: "task", html: "x" });
    expect([none.status, none.data.message]).toEqual([400, "Select a learner first."]);
    for (const [kind, text] of [
      ["notice", "Please enter a notice."],
      ["task", "Please enter a task."],
      ["certificate", "Please enter a certificate."],
    ] as const) {
      for (const html of ["", "   ", "<script>alert(1)</script>"]) {
        const refused = await act("staff", { intent: "send", learnerId: people.learner.id, kind, html });
        expect([refused.status, refused.data.message]).toEqual([400, text]);
      }
    }
    // A staff member is not a learner: nothing is sent to them.
    expect((await act("admin", { intent: "send", learnerId: people.staff.id, kind: "task", html: "x" })).status).toBe(
      404,
    );
    expect(
      (await act("admin", { intent: "send", learnerId: people.learner.id, kind: "secret", html: "x" })).status,
    ).toBe(400);
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);
  });

  it("sanitizes the HTML it stores and tells the learner after the row is there", async () => {
    const seen: { event: RealtimeEvent; stored: number }[] = [];
    const waiting: Promise<void>[] = [];
    h.bus.subscribe(userTopic(people.learner.id), (event) => {
      waiting.push(
        handle.db
          .selectFrom("message")
          .select("id")
          .where("learnerId", "=", people.learner.id)
          .execute()
          .then((rows) => void seen.push({ event, stored: rows.length })),
      );
    });
    const html =
      '<p onclick="x()">Hi <b>there</b></p><script>alert(1)</script><img src=x onerror=alert(1)>' +
      '<a href="javascript:alert(1)">bad</a><a href="https://example.com/a">good</a>';
    const sent = await act("staff", { intent: "send", learnerId: people.learner.id, kind: "certificate", html });
    expect(sent.data).toEqual({ ok: true, message: "Certificate sent successfully!" });
    const row = await handle.db.selectFrom("message").selectAll().executeTakeFirstOrThrow();
    expect([row.kind, row.sentBy]).toEqual(["certificate", people.staff.id]);
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
      const { results } = await workspace("staff", query);
      expect(results.total).toBe(results.learners.length);
      return results.learners.map((l) => l.username);
    };
    // Newest first; the empty-role user counts as a learner, the mentor does not.
    expect(await names("q=asha")).toEqual(["Asha Blank", "ASHA Patil", "ashaXRao", "Asha_Rao"]);
    expect(await names("q=ASHA_")).toEqual(["Asha_Rao"]);
    expect(await names("q=_")).toEqual(["Asha_Rao"]);
    expect(await names("q=%25")).toEqual(["100% Ravi"]);
    expect(await names("q=%5C")).toEqual(["back\\slash"]);
    expect(await names("q=ravi&course=Java")).toEqual(["100% Ravi"]);
    // Leena signed up (now) on Python; Omkar on Java.
    expect(await names("course=Python")).toEqual(["Leena", "ASHA Patil", "Asha_Rao"]);
    expect(await names("q=nobody")).toEqual([]);
    expect(await names("q=%20%20")).toHaveLength(9);
    expect(await names("")).toHaveLength(9);
    // A search too long to be a name is refused, not run.
    const long = await h.load<{ message: string }>(people.staff, `/staff?q=${"a".repeat(201)}`);
    expect([long.status, long.data.message]).toEqual([400, "The search is too long."]);
    expect((await workspace("staff")).courses).toEqual(["Java", "Python", "SEO", "VFX"]);
  });

  it("finds learners by email, and by phone with or without +91, spaces, dashes or a leading 0", async () => {
    const t = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString();
    const priya = await addLearner("Priya", "Python", t(1));
    const kiran = await addLearner("Kiran", "Java", t(2));
    const set = (id: string, email: string, phone: string) =>
      handle.db.updateTable("user").set({ email, phone }).where("id", "=", id).execute();
    await set(priya, "priya.k@college.in", "9000043210");
    await set(kiran, "kiran@example.com", "9988776655");
    const names = async (q: string) =>
      (await workspace("staff", `q=${encodeURIComponent(q)}`)).results.learners.map((l) => l.username);

    expect(await names("COLLEGE.IN")).toEqual(["Priya"]);
    expect(await names("kiran@")).toEqual(["Kiran"]);
    for (const q of [
      "90000 43210",
      "+91 90000 43210",
      "+919000043210",
      "919000043210",
      "09000043210",
      "900-004-3210",
      "(90000) 43210",
      "+91 90000",
      "00004",
    ]) {
      expect(await names(q), q).toEqual(["Priya"]);
    }
    expect(await names("99887")).toEqual(["Kiran"]);
    // Digits inside a name or email search are text, not a phone.
    expect(await names("priya 9")).toEqual([]);
    const staffSigned = await workspace("staff", `q=${encodeURIComponent("+91 9")}`);
    expect(staffSigned.results.total).toBe(4);
  });

  it("pages through learners newest first, the page number from the address", async () => {
    const base = Date.UTC(2024, 0, 1);
    for (let i = 0; i < 45; i++) await addLearner(`learner${i}`, "Python", new Date(base + i * 1000).toISOString());
    const page = async (n: string) => (await workspace("admin", `course=Python&page=${n}`)).results;
    const first = await page("1");
    // 45 added, and Leena (signed up now) is on Python too.
    expect(first).toMatchObject({ total: 46, page: 1, pages: 3 });
    expect(first.learners.map((l) => l.username).slice(0, 2)).toEqual(["Leena", "learner44"]);
    expect((await page("3")).learners.map((l) => l.username)).toEqual([
      "learner5",
      "learner4",
      "learner3",
      "learner2",
      "learner1",
      "learner0",
    ]);
    expect((await page("99")).page).toBe(3);
    expect((await page("nonsense")).page).toBe(1);
    // 20, 50 or 100 a page; any other size is the default.
    const fifty = (await workspace("admin", "course=Python&size=50")).results;
    expect(fifty).toMatchObject({ pageSize: 50, pages: 1, hasNext: false });
    expect(fifty.learners).toHaveLength(46);
    expect((await workspace("admin", "course=Python&size=7&page=3")).results).toMatchObject({ pageSize: 20, page: 3 });
    // The bulk-send confirmation asks the same loader for an exact count; nothing else is a count.
    expect((await workspace("staff", "course=Python&count=exact")).results).toMatchObject({ total: 46, pages: 3 });
    const unknown = await h.load<{ message: string }>(people.staff, "/staff?count=all");
    expect([unknown.status, unknown.data.message]).toEqual([400, "Unknown count."]);
  });

  it("lists collapsed cards, and sends the expanded card whole only for a learner listed on the page", async () => {
    const plain = await workspace("staff");
    expect(plain.selected).toBeNull();
    const leena = plain.results.learners.find((l) => l.id === people.learner.id);
    expect(leena).toEqual({
      id: people.learner.id,
      username: "Leena",
      course: "Python",
      photoUrl: null,
      counts: { notice: 0, task: 0, certificate: 0 },
      phone: "9876543210",
      createdAt: expect.any(String),
      lastActiveAt: null,
      hasResume: false,
      unread: 0,
      overdue: 0,
      batches: [],
    });
    await act("staff", { intent: "send", learnerId: people.learner.id, kind: "task", html: "t" });
    const expanded = await workspace("staff", `selected=${people.learner.id}`);
    expect(expanded.selected).toMatchObject({
      id: people.learner.id,
      email: "leena@example.com",
      phone: "9876543210",
      counts: { notice: 0, task: 1, certificate: 0 },
      taskLinks: [],
      resume: null,
    });
    expect(expanded.offerLetter).toBeNull();
    // Not on this page, or not a learner: nothing expanded, nothing of theirs sent.
    expect((await workspace("admin", `q=omkar&selected=${people.learner.id}`)).selected).toBeNull();
    expect((await workspace("admin", `selected=${people.staff.id}`)).selected).toBeNull();
  });

  it("bulk-sends to exactly the learners the search and filter match, refusing a stale count with the new one", async () => {
    const now = new Date().toISOString();
    const python = [await addLearner("Kiran One", "Python", now), await addLearner("kiran two", "Python", now)];
    await addLearner("Kiran Java", "Java", now);
    await addLearner("Meera", "Python", now);
    await addLearner("Kiran Mentor", "Python", now, "mentor");
    expect((await workspace("staff", "q=kiran&course=Python")).results.total).toBe(2);

    const fields = { intent: "bulk-send", search: "kiran", course: "Python", kind: "task" };
    const stale = await act("staff", { ...fields, html: "<p>Week 1</p>", expectedCount: "3" });
    expect(stale.status).toBe(409);
    expect(stale.data).toEqual({
      ok: false,
      message: "The number of matching learners changed. Check the list and confirm again.",
      count: 2,
    });
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);

    const told: string[] = [];
    for (const id of [...python, people.learner.id]) h.bus.subscribe(userTopic(id), () => told.push(id));
    const sent = await act("staff", { ...fields, html: "<p>Week 1</p><script>x</script>", expectedCount: "2" });
    expect(sent.data).toEqual({ ok: true, message: "Task sent to 2 learners.", count: 2 });
    const rows = await handle.db.selectFrom("message").select(["learnerId", "kind", "body"]).execute();
    expect(rows.map((r) => r.learnerId).sort()).toEqual([...python].sort());
    expect(rows.every((r) => r.kind === "task" && r.body === "<p>Week 1</p>")).toBe(true);
    expect(told.sort()).toEqual([...python].sort());
    expect((await audit())[0]).toMatchObject({
      actorName: "Suresh",
      action: "bulk-send",
      detail: "task",
      target: '2 learners in Python whose name, email or phone contains "kiran"',
      count: 2,
    });
  });

  it("sends to exactly the ticked learners, and to none of them when one of them is gone", async () => {
    const now = new Date().toISOString();
    const ticked = [await addLearner("Asha", "Python", now), await addLearner("Ravi", "Java", now)];
    const untouched = await addLearner("Meera", "Python", now);
    const told: string[] = [];
    for (const id of [...ticked, untouched]) h.bus.subscribe(userTopic(id), () => told.push(id));

    const sent = await act("staff", {
      intent: "send-selected",
      learnerIds: `${ticked.join(",")},${ticked[0]}`,
      kind: "notice",
      html: "Class at 4 pm\n\nBring a laptop",
    });
    expect(sent.data).toEqual({ ok: true, message: "Notice sent to 2 learners.", count: 2 });
    const rows = await handle.db.selectFrom("message").select(["learnerId", "body", "sentBy"]).execute();
    expect(rows.map((r) => r.learnerId).sort()).toEqual([...ticked].sort());
    expect(rows.every((r) => r.body === "<p>Class at 4 pm</p>\n<p>Bring a laptop</p>")).toBe(true);
    expect(rows.every((r) => r.sentBy === people.staff.id)).toBe(true);
    expect(told.sort()).toEqual([...ticked].sort());
    expect((await audit())[0]).toMatchObject({
      actorName: "Suresh",
      action: "send-selected",
      detail: "notice",
      target: "Asha and Ravi",
      count: 2,
    });

    // Staff and unknown ids are not learners: nothing is sent, and the answer names them.
    const gone = randomUUID();
    const refused = await act("staff", {
      intent: "send-selected",
      learnerIds: [untouched, people.admin.id, gone].join(","),
      kind: "task",
      html: "Week 2",
    });
    expect(refused.status).toBe(409);
    expect(refused.data).toEqual({
      ok: false,
      message: "2 selected learners no longer exist. Nothing was sent; they were taken off the selection.",
      gone: [people.admin.id, gone],
    });
    expect(await handle.db.selectFrom("message").select("id").where("kind", "=", "task").execute()).toEqual([]);

    const refusals = [
      [{ learnerIds: "" }, "Select at least one learner."],
      [
        { learnerIds: Array.from({ length: 501 }, () => randomUUID()).join(",") },
        "Select at most 500 learners at once, or send to all matching learners.",
      ],
      [{ learnerIds: untouched, html: "<script>x</script>" }, "Please enter a task."],
      [
        { learnerIds: untouched, html: "a\n".repeat(2_000) },
        "That task has too many lines or tags: at most 2,000 lines and 2,000 tags.",
      ],
      [{ learnerIds: "x".repeat(201) }, "Unknown id."],
    ] as const;
    for (const [fields, message] of refusals) {
      const answer = await act("staff", { intent: "send-selected", kind: "task", html: "t", ...fields });
      expect([answer.status, answer.data.message]).toEqual([400, message]);
    }
    expect((await audit()).length).toBe(1);
  });

  it("previews a text as it will be stored, without storing or logging anything", async () => {
    const answer = await act("staff", {
      intent: "preview",
      kind: "certificate",
      html: "Well done,\nLeena!\n\n<b>Distinction</b><script>x()</script>",
    });
    expect(answer.data).toEqual({
      ok: true,
      message: "",
      html: "<p>Well done,<br />Leena!</p>\n<p><b>Distinction</b></p>",
    });
    const empty = await act("staff", { intent: "preview", kind: "task", html: "<img src=x>" });
    expect([empty.status, empty.data.message]).toEqual([400, "Please enter a task."]);
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);
    expect(await audit()).toEqual([]);
  });

  it("records every staff action in the audit log, newest first, only when the action happened", async () => {
    const learnerId = people.learner.id;
    await act("staff", { intent: "send", learnerId, kind: "notice", html: "<p>n</p>" });
    await act("admin", { intent: "send", learnerId, kind: "task", html: "<p>t</p>" });
    await act("admin", { intent: "clear", learnerId, kind: "notice" });
    await act("staff", { intent: "clear", learnerId, kind: "task" }); // refused: not logged
    await act("admin", { intent: "save-offer-letter", learnerId, html: "<p>Offer</p>" });
    await act("admin", {
      intent: "bulk-send",
      search: "",
      course: "Python",
      kind: "certificate",
      html: "c",
      expectedCount: "1",
    });
    await act("admin", { intent: "change-role", userId: people.staff.id, role: "none" });

    const entries = await audit();
    expect(entries.map((e) => [e.actorName, e.action, e.detail, e.target, e.count])).toEqual([
      ["Anita", "role-change", "none", "Suresh", 1],
      ["Anita", "bulk-send", "certificate", "1 learner in Python", 1],
      ["Anita", "offer-letter", null, "Leena", 1],
      ["Anita", "clear", "notice", "Leena", 1],
      ["Anita", "send", "task", "Leena", 1],
      ["Suresh", "send", "notice", "Leena", 1],
    ]);
    const times = entries.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const page = await h.load<LearnerPageData>(people.admin, `/staff/learners/${learnerId}`);
    expect(page.data.offerLetter?.html).toBe("<p>Offer</p>");
    const selected = await workspace("admin", `selected=${learnerId}`);
    expect(selected.offerLetter).toBe("<p>Offer</p>");
    // Suresh is a learner now: the staff pages refuse him.
    expect((await h.load(people.staff, "/staff")).status).toBe(403);
    // The admin cannot demote themself (and lock everyone out).
    expect((await act("admin", { intent: "change-role", userId: people.admin.id, role: "none" })).status).toBe(400);
  });

  it("lists everyone with a role for staff; an admin changes roles there, audited, and back to learner", async () => {
    const peoplePage = async (who: Who, query = "") => h.load<PeopleData>(user(who), `/staff/people${query}`);
    expect((await peoplePage("anonymous")).status).toBe(302);
    expect((await peoplePage("learner")).status).toBe(403);
    const seen = await peoplePage("staff");
    expect(seen.status).toBe(200);
    expect(seen.data.people.map((p) => [p.name, p.role])).toEqual([
      ["Anita", "admin"],
      ["Suresh", "mentor"],
    ]);
    expect(seen.data.roles).toEqual(["admin", "mentor"]);

    const before = Date.now();
    const made = await act(
      "admin",
      { intent: "change-role", userId: people.learner.id, role: "trainer" },
      "/staff/people",
    );
    expect([made.status, made.data.message]).toEqual([200, "Role changed."]);
    const after = (await peoplePage("admin")).data;
    const leena = after.people.find((p) => p.id === people.learner.id)!;
    expect([leena.role, leena.email]).toEqual(["trainer", "leena@example.com"]);
    expect(Date.parse(leena.since)).toBeGreaterThanOrEqual(before - 1000);
    expect(after.roles).toEqual(["admin", "mentor", "trainer"]);
    // Not a learner now: gone from the learner list, found here by name or email.
    expect((await workspace("admin")).results.learners.map((l) => l.id)).not.toContain(people.learner.id);
    expect((await peoplePage("staff", "?q=LEENA@")).data.people.map((p) => p.name)).toEqual(["Leena"]);
    expect((await peoplePage("staff", "?q=nobody")).data.people).toEqual([]);
    // Staff see the page but cannot change a role from it.
    const refused = await act(
      "staff",
      { intent: "change-role", userId: people.learner.id, role: "none" },
      "/staff/people",
    );
    expect(refused.status).toBe(403);

    await act("admin", { intent: "change-role", userId: people.learner.id, role: "none" }, "/staff/people");
    expect((await peoplePage("admin")).data.people.map((p) => p.name)).toEqual(["Anita", "Suresh"]);
    expect((await workspace("admin")).results.learners.map((l) => l.id)).toContain(people.learner.id);
    expect((await audit()).slice(0, 2).map((e) => [e.action, e.detail, e.target])).toEqual([
      ["role-change", "none", "Leena"],
      ["role-change", "trainer", "Leena"],
    ]);
  });

  it("keeps at least one admin when two admins demote each other at once", async () => {
    await h.setRole(people.staff, "admin");
    const [first, second] = await Promise.all([
      act("admin", { intent: "change-role", userId: people.staff.id, role: "mentor" }),
      act("staff", { intent: "change-role", userId: people.admin.id, role: "mentor" }),
    ]);
    const outcomes = [first, second].map((r) => [r.status, r.data.message]).sort();
    // Whichever ran second either found its own admin role gone (403) or the other admin the last (409).
    expect(outcomes[0]).toEqual([200, "Role changed."]);
    expect([
      [403, "Only an admin can do this."],
      [409, "There must be at least one admin."],
    ]).toContainEqual(outcomes[1]);
    const admins = await handle.db.selectFrom("user").select("id").where("role", "=", "admin").execute();
    expect(admins).toHaveLength(1);
  });

  it("lists what was sent to a learner, with sender and read state; an admin deletes one item, audited", async () => {
    const learnerId = people.learner.id;
    await act("staff", { intent: "send", learnerId, kind: "notice", html: "<p>Bring your <b>laptop</b></p>" });
    await act("admin", { intent: "send", learnerId, kind: "task", html: "Week 1" });
    await act("admin", { intent: "send", learnerId: people.other.id, kind: "task", html: "Not Leena's" });
    const shown = await h.load<DashboardData>(people.learner, "/dashboard?show=notices");
    await h.act(people.learner, "/dashboard", {
      intent: "mark-read",
      kind: "notice",
      ids: shown.data.popup!.items.map((item) => item.id).join(" "),
    });
    const page = async (who: Who) => h.load<LearnerPageData>(user(who), `/staff/learners/${learnerId}`);
    const { sent } = (await page("staff")).data;
    expect(sent.more).toBe(false);
    expect(sent.items.map((i) => [i.kind, i.html, i.sentBy, i.readAt !== null])).toEqual([
      ["task", "<p>Week 1</p>", "Anita", false],
      ["notice", "<p>Bring your <b>laptop</b></p>", "Suresh", true],
    ]);
    const [task, notice] = sent.items;

    // Staff see it; only admins delete; another learner's item cannot be deleted through this learner.
    const byStaff = await act("staff", { intent: "delete-message", learnerId, messageId: task!.id });
    expect([byStaff.status, byStaff.data.message]).toEqual([403, "Only an admin can do this."]);
    const otherItem = (await h.load<LearnerPageData>(people.admin, `/staff/learners/${people.other.id}`)).data.sent
      .items[0]!;
    const crossed = await act("admin", { intent: "delete-message", learnerId, messageId: otherItem.id });
    expect([crossed.status, crossed.data.message]).toEqual([404, "That item was already deleted."]);
    const deleted = await act("admin", { intent: "delete-message", learnerId, messageId: notice!.id });
    expect([deleted.status, deleted.data.message]).toEqual([200, "Notice deleted."]);
    expect((await page("admin")).data.sent.items.map((i) => i.id)).toEqual([task!.id]);
    const again = await act("admin", { intent: "delete-message", learnerId, messageId: notice!.id });
    expect(again.status).toBe(404);
    expect(
      (await h.load<LearnerPageData>(people.admin, `/staff/learners/${people.other.id}`)).data.sent.items,
    ).toHaveLength(1);
    const [entry] = await audit();
    expect([entry!.action, entry!.detail, entry!.target, entry!.count]).toEqual([
      "delete-message",
      "notice",
      "Leena",
      1,
    ]);
  });

  it("shows one learner's card with links, counts and resume", async () => {
    await handle.db
      .insertInto("task_link")
      .values({
        id: randomUUID(),
        learnerId: people.learner.id,
        link: "https://github.com/leena/app",
        createdAt: new Date().toISOString(),
      })
      .execute();
    await act("staff", { intent: "send", learnerId: people.learner.id, kind: "task", html: "t" });
    const { learner } = (await h.load<LearnerPageData>(people.staff, `/staff/learners/${people.learner.id}`)).data;
    expect(learner).toMatchObject({
      id: people.learner.id,
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
  });

  it("announces a new sign-up to staff once the account exists", async () => {
    const announced: { id: string; exists: boolean }[] = [];
    const waiting: Promise<void>[] = [];
    h.bus.subscribe(staffTopic, (event) => {
      if (event.type !== "learner-signed-up") return;
      waiting.push(
        handle.db
          .selectFrom("user")
          .select("id")
          .where("id", "=", event.learnerId)
          .executeTakeFirst()
          .then((row) => void announced.push({ id: event.learnerId, exists: row !== undefined })),
      );
    });
    const { id } = await h.signUp("Nikhil");
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all(waiting);
    expect(announced).toEqual([{ id, exists: true }]);
  });
});
