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

  it("keeps a trainer's feedback unread, on the home and the Tasks badge, until the learner is shown it", async () => {
    await ok(admin, "/staff/batches", {
      intent: "create-batch",
      name: "Java – Nov 2026",
      courseSlug: "java",
      schedule: "Sat–Sun 10–1",
      startDate: inDays(-5),
      endDate: inDays(90),
      payment: "upfront",
    });
    const batchId = (await handle.db.selectFrom("batch").select("id").executeTakeFirstOrThrow()).id;
    await ok(admin, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: `${leena.id},${omar.id}` });
    const assignmentId = (
      await ok(admin, "/staff/batches", {
        intent: "create-assignment",
        batchId,
        title: "Write a linked list",
        instructions: "Hand in the repository link.",
        dueDate: inDays(7),
        dueTime: "18:00",
        handIn: "link",
        points: "",
      })
    ).assignmentId as string;
    for (const who of [leena, omar]) {
      await ok(who, "/dashboard", {
        intent: "submit-assignment",
        assignmentId,
        link: `https://github.com/${who.id}/list`,
      });
    }
    // Both learners read the assignment's task, so only feedback can be unread from here on.
    for (const who of [leena, omar]) {
      const tasks = (await h.load<DashboardData>(who, "/dashboard?show=tasks")).data.popup!;
      await ok(who, "/dashboard", { intent: "mark-read", kind: "task", ids: tasks.items.map((i) => i.id).join(" ") });
    }
    const before = await home(leena);
    expect([before.learner.unread.task, before.home.fromTrainer]).toEqual([0, []]);

    const review = (learnerId: string, comment: string) =>
      ok(admin, "/staff/batches", {
        intent: "review-submission",
        assignmentId,
        learnerId,
        decision: "changes",
        comment,
      });
    await review(leena.id, "Handle the empty list.");
    await review(omar.id, "Add tests.");
    // A week later it is still there: unread is what the learner has not been shown, not its age.
    await handle.db
      .updateTable("assignment_comment")
      .set({ createdAt: new Date(Date.now() - 30 * 86_400_000).toISOString() })
      .execute();
    const unread = await home(leena);
    expect(unread.learner.unread.task).toBe(1);
    expect(unread.home.fromTrainer).toEqual([
      expect.objectContaining({ kind: "feedback", text: "Write a linked list: Handle the empty list." }),
    ]);

    // Omar names Leena's feedback as shown to him: it stays unread for her.
    const leenasFeedback = (await h.load<DashboardData>(leena, "/dashboard?show=tasks")).data.popup!.assignments![0]!
      .comments;
    expect(leenasFeedback.map((c) => [c.body, c.read])).toEqual([["Handle the empty list.", false]]);
    await ok(omar, "/dashboard", { intent: "mark-read", kind: "task", ids: leenasFeedback[0]!.id });
    expect((await home(leena)).learner.unread.task).toBe(1);
    // Another kind's popup does not read it either.
    await ok(leena, "/dashboard", { intent: "mark-read", kind: "notice", ids: leenasFeedback[0]!.id });
    expect((await home(leena)).learner.unread.task).toBe(1);

    // The Tasks popup shows it, and reads it: gone from her home and badge, still unread for Omar.
    await ok(leena, "/dashboard", { intent: "mark-read", kind: "task", ids: leenasFeedback[0]!.id });
    const read = await home(leena);
    expect([read.learner.unread.task, read.home.fromTrainer]).toEqual([0, []]);
    const omars = await home(omar);
    expect(omars.learner.unread.task).toBe(1);
    expect(omars.home.fromTrainer).toEqual([
      expect.objectContaining({ kind: "feedback", text: "Write a linked list: Add tests." }),
    ]);
    // Her own reply is never unread for her.
    await ok(leena, "/dashboard", { intent: "reply-assignment", assignmentId, body: "Done, thanks." });
    expect((await home(leena)).learner.unread.task).toBe(0);
  });
});
