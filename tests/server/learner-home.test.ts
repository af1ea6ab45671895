import { afterEach, beforeEach, expect, it } from "vitest";
import { calendarDate } from "~/core/dates";
import type { DashboardData } from "~/dashboard/dashboard-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness, type Learner } from "../support/test-app";

// The top of the learner's home on both databases: Due next, Needs your reply (counted on the
// Offer letter badge), New from your trainer and per-batch progress, each only the learner's own.

describeEachDatabase("learner home: what needs the learner", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let leena: Learner;
  let omar: Learner;
  let admin: Learner;

  const ok = async (who: Learner, address: string, fields: Record<string, string>) => {
    const answer = await h.act(who, address, fields);
    expect(answer.data, `${fields.intent}`).toMatchObject({ ok: true });
    return answer.data as { ok: true; message: string } & Record<string, unknown>;
  };
  const inDays = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), h.config.instituteTimeZone);
  const home = async (who: Learner) => {
    const page = await h.load<DashboardData>(who, "/dashboard");
    expect(page.status).toBe(200);
    return page.data;
  };

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    [leena, omar, admin] = await Promise.all([h.signUp("Leena"), h.signUp("Omar"), h.signUp("Asha")]);
    await h.setRole(admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  it("counts an offer letter awaiting a reply on its badge and lists it until answered", async () => {
    const before = await home(leena);
    expect([before.learner.unread.offer, before.home.needsReply]).toEqual([0, []]);
    await ok(admin, `/staff/learners/${leena.id}`, {
      intent: "issue-offer-letter",
      learnerId: leena.id,
      title: "Junior Web Developer",
      issuedOn: "",
      startDate: inDays(40),
      location: "Pune",
      payKind: "stipend",
      payAmount: "25,000",
      payPeriod: "month",
      replyBy: inDays(10),
      body: "We are pleased to offer you this position.",
    });
    const waiting = await home(leena);
    expect(waiting.learner.unread.offer).toBe(1);
    expect(waiting.home.needsReply).toEqual([
      expect.objectContaining({ title: "Junior Web Developer", replyBy: inDays(10) }),
    ]);
    // Omar has no offer: nothing of Leena's shows on his home.
    const other = await home(omar);
    expect([other.learner.unread.offer, other.home.needsReply]).toEqual([0, []]);
    // Answered, it needs nothing more.
    await ok(leena, "/dashboard", {
      intent: "answer-offer",
      documentId: waiting.home.needsReply[0]!.id,
      answer: "accepted",
    });
    const answered = await home(leena);
    expect([answered.learner.unread.offer, answered.home.needsReply]).toEqual([0, []]);
  });

  it("lists what is due, the trainer's feedback and notices, and raises a batch's progress on acceptance", async () => {
    await ok(admin, "/staff/batches", {
      intent: "create-batch",
      name: "Python – Oct 2026",
      courseSlug: "python",
      schedule: "Mon–Fri 6–8 pm",
      startDate: inDays(-10),
      endDate: inDays(100),
      payment: "upfront",
    });
    const batchId = (await handle.db.selectFrom("batch").select("id").executeTakeFirstOrThrow()).id;
    await ok(admin, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: leena.id });
    const set = (title: string, days: number) =>
      ok(admin, "/staff/batches", {
        intent: "create-assignment",
        batchId,
        title,
        instructions: "Hand in the repository link.",
        dueDate: inDays(days),
        dueTime: "18:00",
        handIn: "link",
        points: "",
      });
    const later = (await set("Build a web page", 9)).assignmentId as string;
    await set("Build a calculator", 3);

    const start = (await home(leena)).home;
    expect(start.dueNext.map((item) => [item.title, item.status])).toEqual([
      ["Build a calculator", "not-started"],
      ["Build a web page", "not-started"],
    ]);
    expect(start.batches).toEqual([expect.objectContaining({ name: "Python – Oct 2026", accepted: 0, total: 2 })]);
    // Omar is in no batch: no assignments, no batches.
    const omars = (await home(omar)).home;
    expect([omars.dueNext, omars.batches, omars.fromTrainer]).toEqual([[], [], []]);

    await ok(leena, "/dashboard", {
      intent: "submit-assignment",
      assignmentId: later,
      link: "https://github.com/leena/page",
    });
    expect((await home(leena)).home.dueNext.find((item) => item.id === later)!.status).toBe("submitted");
    await ok(admin, "/staff/batches", {
      intent: "review-submission",
      assignmentId: later,
      learnerId: leena.id,
      decision: "accept",
      comment: "Clean markup.",
    });
    const after = (await home(leena)).home;
    expect(after.dueNext.map((item) => item.title)).toEqual(["Build a calculator"]);
    expect(after.batches).toEqual([expect.objectContaining({ accepted: 1, total: 2 })]);
    expect(after.fromTrainer).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "feedback", text: "Build a web page: Clean markup.", from: "Asha" }),
      ]),
    );
    // Two unread tasks (the assignments' messages) show too, until the Tasks popup is read.
    expect(after.fromTrainer.filter((item) => item.kind === "task").length).toBeGreaterThan(0);
    expect((await home(omar)).home.fromTrainer).toEqual([]);
  });
});
