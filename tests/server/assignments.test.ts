import { afterEach, beforeEach, expect, it } from "vitest";
import { assignmentMessages } from "~/assignments/assignment-rules";
import type { LearnerAssignmentView } from "~/assignments/learner-view.server";
import { reviewQueue } from "~/assignments/review-queue.server";
import { trainedBatchIds } from "~/batches/batch-edit.server";
import { calendarDate } from "~/core/dates";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { minimalPdf } from "../support/minimal-pdf";
import { createHarness, type Harness, type Learner } from "../support/test-app";

// The learning loop on both databases, through the pages' actions as each kind of person: a
// batch's course and trainers, bulk enrolment, assignments and their rules, submissions (link and
// file), reviews, statuses, who may do what, and the audit rows.

type TasksPopup = { popup: { assignments?: LearnerAssignmentView[] } | null; learner: { unread: { task: number } } };

describeEachDatabase("assignments: batches, submissions, reviews", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let leena: Learner;
  let omar: Learner;
  let trainer: Learner;
  let otherTrainer: Learner;
  let batchId: string;

  const ok = async (who: Learner, address: string, fields: Record<string, string>) => {
    const answer = await h.act(who, address, fields);
    expect(answer.data, `${fields.intent}`).toMatchObject({ ok: true });
    return answer.data as { ok: true; message: string } & Record<string, unknown>;
  };
  const refused = async (who: Learner, address: string, fields: Record<string, string>) => {
    const answer = await h.act(who, address, fields);
    return { status: answer.status, message: (answer.data as { message?: string } | undefined)?.message };
  };
  const inDays = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), h.config.instituteTimeZone);
  const tasks = async (who: Learner) => (await h.load<TasksPopup>(who, "/dashboard?show=tasks")).data;
  const mine = async (who: Learner) => (await tasks(who)).popup?.assignments ?? [];
  const audit = async () =>
    (
      await handle.db.selectFrom("staff_audit").select(["action", "count", "target"]).orderBy("createdAt").execute()
    ).map((row) => [row.action, Number(row.count)]);

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    [leena, omar, trainer, otherTrainer] = await Promise.all([
      h.signUp("Leena"),
      h.signUp("Omar"),
      h.signUp("Tara"),
      h.signUp("Vikram"),
    ]);
    await h.setRole(trainer, "staff");
    await h.setRole(otherTrainer, "staff");
    await ok(trainer, "/staff/batches", {
      intent: "create-batch",
      name: "Python – Oct 2026",
      courseSlug: "python",
      schedule: "Mon–Fri 6–8 pm",
      startDate: inDays(-10),
      endDate: inDays(100),
      payment: "upfront",
    });
    batchId = (await handle.db.selectFrom("batch").select("id").executeTakeFirstOrThrow()).id;
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const createFor = (fields: Record<string, string> = {}) => ({
    intent: "create-assignment",
    batchId,
    title: "Build a calculator",
    instructions: "Use **functions**.\n\n<script>alert(1)</script>Hand in the repository link.",
    dueDate: inDays(7),
    dueTime: "18:00",
    handIn: "link",
    points: "10",
    ...fields,
  });

  it("keeps a batch's course from the catalogue, its schedule and its trainers", async () => {
    const batch = await handle.db.selectFrom("batch").selectAll().executeTakeFirstOrThrow();
    expect([batch.course, batch.courseSlug, batch.schedule]).toEqual(["Python", "python", "Mon–Fri 6–8 pm"]);
    expect(
      await refused(trainer, "/staff/batches", {
        intent: "create-batch",
        name: "X",
        courseSlug: "basket-weaving",
        startDate: inDays(0),
        endDate: inDays(1),
        payment: "upfront",
      }),
    ).toEqual({ status: 404, message: "No such course in the catalogue." });
    await ok(trainer, "/staff/batches", {
      intent: "edit-batch",
      batchId,
      courseSlug: "java",
      schedule: "Sat 10–1",
      trainerIds: trainer.id,
    });
    const edited = await handle.db.selectFrom("batch").selectAll().executeTakeFirstOrThrow();
    expect([edited.course, edited.courseSlug, edited.schedule]).toEqual(["Java", "java", "Sat 10–1"]);
    expect(await handle.db.selectFrom("batch_trainer").select("staffId").execute()).toEqual([{ staffId: trainer.id }]);
    // A learner can't be a trainer; a learner can't edit a batch.
    expect(
      (
        await refused(trainer, "/staff/batches", {
          intent: "edit-batch",
          batchId,
          courseSlug: "java",
          trainerIds: leena.id,
        })
      ).status,
    ).toBe(400);
    expect(
      (await refused(leena, "/staff/batches", { intent: "edit-batch", batchId, courseSlug: "java", trainerIds: "" }))
        .status,
    ).toBe(403);
  });

  it("enrols in bulk: idempotent, at most 500, every id a learner, audited once per change", async () => {
    const first = await ok(trainer, "/staff/batches", {
      intent: "enrol-learners",
      batchId,
      learnerIds: `${leena.id},${omar.id}`,
    });
    expect(first).toMatchObject({ enrolled: 2, already: 0, message: "2 learners enrolled in Python – Oct 2026." });
    const again = await ok(trainer, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: leena.id });
    expect(again).toMatchObject({ enrolled: 0, already: 1 });
    const tooMany = Array.from({ length: 501 }, (_, i) => `id-${i}`).join(",");
    expect(
      await refused(trainer, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: tooMany }),
    ).toEqual({
      status: 400,
      message: assignmentMessages.tooManyLearners,
    });
    const withStaff = await refused(trainer, "/staff/batches", {
      intent: "enrol-learners",
      batchId,
      learnerIds: `${otherTrainer.id}`,
    });
    expect(withStaff.status).toBe(404);
    expect(
      await refused(leena, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: leena.id }),
    ).toMatchObject({
      status: 403,
    });
    // The dry run of pasted emails says what each would do, and writes nothing.
    const plan = await ok(trainer, "/staff/batches", {
      intent: "plan-enrolment",
      batchId,
      emails: `email\nleena@example.com\nnobody@example.com\nvikram@example.com`,
    });
    expect((plan.plan as { email: string; outcome: string }[]).map((row) => [row.email, row.outcome])).toEqual([
      ["leena@example.com", "already"],
      ["nobody@example.com", "unknown"],
      ["vikram@example.com", "staff"],
    ]);
    expect(await audit()).toEqual([
      ["create-batch", 1],
      ["bulk-enrol", 2],
    ]);
  });

  it("moves and removes learners, audited", async () => {
    await ok(trainer, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: `${leena.id},${omar.id}` });
    await ok(trainer, "/staff/batches", {
      intent: "create-batch",
      name: "Python – Nov 2026",
      courseSlug: "python",
      startDate: inDays(0),
      endDate: inDays(90),
      payment: "upfront",
    });
    const other = await handle.db.selectFrom("batch").select("id").where("id", "!=", batchId).executeTakeFirstOrThrow();
    const enrolmentOf = async (who: Learner) =>
      await handle.db
        .selectFrom("enrolment")
        .select(["id", "batchId"])
        .where("learnerId", "=", who.id)
        .executeTakeFirstOrThrow();
    await ok(trainer, "/staff/batches", {
      intent: "move-learner",
      enrolmentId: (await enrolmentOf(leena)).id,
      toBatchId: other.id,
    });
    expect((await enrolmentOf(leena)).batchId).toBe(other.id);
    await ok(trainer, "/staff/batches", { intent: "remove-from-batch", enrolmentId: (await enrolmentOf(omar)).id });
    expect(await handle.db.selectFrom("enrolment").select("id").where("learnerId", "=", omar.id).execute()).toEqual([]);
    expect((await audit()).map(([action]) => action)).toEqual([
      "create-batch",
      "bulk-enrol",
      "create-batch",
      "move-learner",
      "remove-from-batch",
    ]);
  });

  it("refuses an assignment due in the past, a long title, and from learners", async () => {
    await ok(trainer, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: leena.id });
    expect(await refused(trainer, "/staff/batches", createFor({ dueDate: inDays(-1) }))).toEqual({
      status: 400,
      message: "The due date has passed.",
    });
    expect(await refused(trainer, "/staff/batches", createFor({ title: "x".repeat(201) }))).toEqual({
      status: 400,
      message: assignmentMessages.titleTooLong,
    });
    expect(await refused(trainer, "/staff/batches", createFor({ handIn: "video" }))).toMatchObject({ status: 400 });
    expect((await refused(leena, "/staff/batches", createFor())).status).toBe(403);
    expect(await handle.db.selectFrom("assignment").select("id").execute()).toEqual([]);
  });

  it("takes a link through submission, changes requested, resubmission and acceptance with points", async () => {
    await ok(trainer, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: leena.id });
    const created = await ok(trainer, "/staff/batches", createFor());
    expect(created.message).toBe('Assignment "Build a calculator" set for 1 learner.');
    const assignmentId = created.assignmentId as string;

    // The learner finds it in the Tasks popup (one unread task), sanitized, not started.
    const before = await tasks(leena);
    expect(before.learner.unread.task).toBe(1);
    const [listed] = before.popup!.assignments!;
    expect(listed).toMatchObject({ title: "Build a calculator", status: "not-started", maxPoints: 10 });
    expect(listed!.instructions).not.toContain("<script");
    // Omar is in no batch: not his assignment.
    expect(await mine(omar)).toEqual([]);
    const submit = { intent: "submit-assignment", assignmentId };
    expect(await refused(omar, "/dashboard", { ...submit, link: "https://example.com/x" })).toEqual({
      status: 404,
      message: assignmentMessages.notFound,
    });
    expect(await refused(leena, "/dashboard", { ...submit, link: "  " })).toEqual({
      status: 400,
      message: "Please enter a link",
    });
    expect((await ok(leena, "/dashboard", { ...submit, link: "https://github.com/leena/calc" })).message).toBe(
      "Submitted.",
    );
    expect((await mine(leena))[0]!.status).toBe("submitted");

    // In the trainer's queue; the other trainer (no batches of theirs) starts with an empty one.
    const queue = await reviewQueue(handle.db, {
      batch: "all",
      assignmentId: "",
      myBatchIds: await trainedBatchIds(handle.db, trainer.id),
    });
    expect(queue.current).toMatchObject({ learnerId: leena.id, title: "Build a calculator" });
    expect(queue.current!.submissions[0]!.link).toBe("https://github.com/leena/calc");
    expect(
      (
        await reviewQueue(handle.db, {
          batch: "mine",
          assignmentId: "",
          myBatchIds: await trainedBatchIds(handle.db, otherTrainer.id),
        })
      ).waiting,
    ).toEqual([]);

    const review = { intent: "review-submission", assignmentId, learnerId: leena.id };
    expect(await refused(trainer, "/staff/batches", { ...review, decision: "changes", comment: "" })).toEqual({
      status: 400,
      message: assignmentMessages.commentRequired,
    });
    expect((await refused(leena, "/staff/batches", { ...review, decision: "accept" })).status).toBe(403);
    await ok(trainer, "/staff/batches", { ...review, decision: "changes", comment: "Add division by zero handling." });
    let view = (await mine(leena))[0]!;
    expect(view.status).toBe("changes-requested");
    expect(view.comments.map((c) => [c.kind, c.author, c.body])).toEqual([
      ["changes", "Tara", "Add division by zero handling."],
    ]);
    // Not waiting any more: a second review is refused.
    expect((await refused(otherTrainer, "/staff/batches", { ...review, decision: "accept" })).status).toBe(409);

    await ok(leena, "/dashboard", { intent: "reply-assignment", assignmentId, body: "Done, see the new commit." });
    await ok(leena, "/dashboard", { ...submit, link: "https://github.com/leena/calc/commit/2" });
    expect((await mine(leena))[0]!.status).toBe("submitted");
    expect(await refused(otherTrainer, "/staff/batches", { ...review, decision: "accept", points: "11" })).toEqual({
      status: 400,
      message: assignmentMessages.pointsAbove(10),
    });
    await ok(otherTrainer, "/staff/batches", { ...review, decision: "accept", points: "8", comment: "Well done." });
    view = (await mine(leena))[0]!;
    expect([view.status, view.points, view.submissions.length]).toEqual(["accepted", 8, 2]);
    expect(view.comments.map((c) => c.kind)).toEqual(["changes", "reply", "accepted"]);
    expect(await refused(leena, "/dashboard", { ...submit, link: "https://github.com/leena/calc/3" })).toEqual({
      status: 409,
      message: "This assignment is accepted.",
    });
    expect(await audit()).toEqual([
      ["create-batch", 1],
      ["bulk-enrol", 1],
      ["create-assignment", 1],
      ["request-changes", 1],
      ["accept-submission", 1],
    ]);
  });

  it("marks a submission after the due time late", async () => {
    await ok(trainer, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: leena.id });
    const { assignmentId } = (await ok(trainer, "/staff/batches", createFor())) as unknown as { assignmentId: string };
    await handle.db
      .updateTable("assignment")
      .set({ dueAt: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "=", assignmentId)
      .execute();
    const answer = await ok(leena, "/dashboard", {
      intent: "submit-assignment",
      assignmentId,
      link: "https://github.com/leena/late",
    });
    expect(answer.message).toBe("Submitted (late).");
    const [view] = await mine(leena);
    expect([view!.status, view!.submissions[0]!.late]).toEqual(["late", true]);
    const queue = await reviewQueue(handle.db, {
      batch: batchId,
      assignmentId,
      myBatchIds: await trainedBatchIds(handle.db, trainer.id),
    });
    expect(queue.waiting.map((row) => row.status)).toEqual(["late"]);
  });

  it("takes a file through the resumable upload, checked by its bytes and size, for its learner only", async () => {
    await ok(trainer, "/staff/batches", { intent: "enrol-learners", batchId, learnerIds: leena.id });
    const { assignmentId } = (await ok(trainer, "/staff/batches", createFor({ handIn: "both" }))) as unknown as {
      assignmentId: string;
    };
    const upload = (who: Learner, fileName: string, data: Buffer, forAssignment = assignmentId) =>
      h.call(who, "POST", "/api/assignments/upload", {
        body: new Uint8Array(data),
        headers: {
          origin: "http://localhost:3999",
          "Tus-Resumable": "1.0.0",
          "Upload-Length": String(data.length),
          "Upload-Metadata": `filename ${Buffer.from(fileName).toString("base64")},assignment ${Buffer.from(forAssignment).toString("base64")}`,
          "Content-Type": "application/offset+octet-stream",
        },
      });
    const pdf = minimalPdf("my work");
    const wrongType = await upload(leena, "work.exe", pdf);
    expect([wrongType.status, await wrongType.text()]).toEqual([415, assignmentMessages.wrongFileType]);
    const notPdf = await upload(leena, "work.pdf", Buffer.from("just some text pretending to be a PDF"));
    expect([notPdf.status, await notPdf.text()]).toEqual([415, assignmentMessages.fileNotMatching]);
    const big = await upload(leena, "big.pdf", Buffer.alloc(21 * 1024 * 1024));
    expect([big.status, await big.text()]).toEqual([413, assignmentMessages.tooLarge(20)]);
    expect((await upload(omar, "work.pdf", pdf)).status).toBe(404);

    const created = await upload(leena, "work.pdf", pdf);
    expect(created.status).toBe(201);
    const fileId = created.headers.get("location")!.split("/").pop()!;
    // A link is needed too; the file must be the learner's own.
    expect(await refused(leena, "/dashboard", { intent: "submit-assignment", assignmentId, link: "", fileId })).toEqual(
      { status: 400, message: "Please enter a link" },
    );
    expect(
      await refused(leena, "/dashboard", {
        intent: "submit-assignment",
        assignmentId,
        link: "https://x.dev",
        fileId: "0".repeat(32),
      }),
    ).toEqual({ status: 400, message: assignmentMessages.unknownFile });
    await ok(leena, "/dashboard", { intent: "submit-assignment", assignmentId, link: "https://x.dev/work", fileId });
    const [view] = await mine(leena);
    expect(view!.submissions[0]!.file).toMatchObject({ id: fileId, name: "work.pdf", size: pdf.length });
    // The file goes to its learner and to staff, to nobody else.
    const own = await h.call(leena, "GET", `/api/assignments/files/${fileId}`);
    expect([own.status, Buffer.from(await own.arrayBuffer()).equals(pdf)]).toEqual([200, true]);
    expect((await h.call(trainer, "GET", `/api/assignments/files/${fileId}`)).status).toBe(200);
    expect((await h.call(omar, "GET", `/api/assignments/files/${fileId}`)).status).toBe(404);
  });
});
