import { afterEach, beforeEach, expect, it } from "vitest";
import { loadReviews } from "~/assignments/reviews-page.server";
import { calendarDate } from "~/core/dates";
import { batchMessages } from "~/batches/batch-rules";
import { staffMessages } from "~/learners/staff-messages";
import { exportColumns } from "~/staff/learner-export.server";
import { exportSelectedResponse } from "~/staff/learner-export-page.server";
import { seedLearners } from "~/staff/seed.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

// The workspace's bulk actions on both databases: enrolling the ticked learners or every learner
// matching the filters (all or none, the count confirmed, at most 500), exporting exactly the
// ticked learners, and a trainer's views starting at their own batches, with a second trainer
// who may act in a batch they don't train (decision 018), named in the audit log.

describeEachDatabase("bulk actions on learners", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let leena: Learner;
  let omar: Learner;
  let priya: Learner;
  let tara: Learner;
  let vikram: Learner;
  let admin: Learner;
  let python: string;
  let java: string;

  const act = (who: Learner, fields: Record<string, string>) => h.act(who, "/staff", fields);
  const ok = async (who: Learner, fields: Record<string, string>) => {
    const answer = await act(who, fields);
    expect(answer.data, fields.intent).toMatchObject({ ok: true });
    return answer.data as { ok: true; message: string } & Record<string, unknown>;
  };
  const inDays = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), h.config.instituteTimeZone);
  const enrolled = async (batchId: string) =>
    (await handle.db.selectFrom("enrolment").select("learnerId").where("batchId", "=", batchId).execute())
      .map((row) => row.learnerId)
      .sort();
  const audit = async () =>
    (
      await handle.db
        .selectFrom("staff_audit")
        .select(["actorName", "action", "target", "count"])
        .where("action", "!=", "create-batch")
        .where("action", "!=", "edit-batch")
        .orderBy("createdAt")
        .execute()
    ).map((row) => [row.actorName, row.action, row.target, Number(row.count)]);
  const newBatch = async (name: string, trainer: Learner) => {
    await ok(admin, {
      intent: "create-batch",
      name,
      courseSlug: "python",
      startDate: inDays(-10),
      endDate: inDays(100),
      payment: "upfront",
    });
    const { id } = await handle.db.selectFrom("batch").select("id").where("name", "=", name).executeTakeFirstOrThrow();
    await ok(admin, { intent: "edit-batch", batchId: id, courseSlug: "python", trainerIds: trainer.id });
    return id;
  };
  const matching = (batchId: string, expectedCount: number, filter: Record<string, string>) => ({
    intent: "enrol-matching",
    batchId,
    search: "",
    course: "",
    ...filter,
    expectedCount: String(expectedCount),
  });

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    [leena, omar, priya, tara, vikram, admin] = await Promise.all([
      h.signUp("Leena"),
      h.signUp("Omar"),
      h.signUp("Priya"),
      h.signUp("Tara"),
      h.signUp("Vikram"),
      h.signUp("Anita"),
    ]);
    await h.setRole(tara, "staff");
    await h.setRole(vikram, "staff");
    await h.setRole(admin, "admin");
    python = await newBatch("Python – Oct 2026", tara);
    java = await newBatch("Java – Nov 2026", vikram);
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  it("enrols the ticked learners all or none, and reports those already in the batch", async () => {
    await handle.db.deleteFrom("user").where("id", "=", priya.id).execute();
    const refused = await act(tara, {
      intent: "enrol-learners",
      batchId: python,
      learnerIds: `${leena.id},${priya.id}`,
    });
    expect(refused).toMatchObject({ status: 404, data: { message: batchMessages.gone(1), gone: [priya.id] } });
    expect(await enrolled(python)).toEqual([]);

    await ok(tara, { intent: "enrol-learners", batchId: python, learnerIds: leena.id });
    const both = await ok(tara, { intent: "enrol-learners", batchId: python, learnerIds: `${leena.id},${omar.id}` });
    expect(both).toMatchObject({
      enrolled: 1,
      already: 1,
      message: "1 learner enrolled in Python – Oct 2026. 1 was already in it.",
    });
    expect(await enrolled(python)).toEqual([leena.id, omar.id].sort());
    expect(await audit()).toEqual([
      ["Tara", "bulk-enrol", "Leena", 1],
      ["Tara", "bulk-enrol", "Omar", 1],
    ]);
  });

  it("enrols every learner matching the filters only as many as confirmed (409 when the set changed)", async () => {
    await ok(admin, { intent: "enrol-learners", batchId: java, learnerIds: `${leena.id},${omar.id}` });
    // The confirmation said 1 learner in Java; 2 are there now: nobody is enrolled, the new count comes back.
    const changed = await act(tara, matching(python, 1, { batch: java }));
    expect(changed).toMatchObject({ status: 409, data: { message: staffMessages.countChanged, count: 2 } });
    expect(await enrolled(python)).toEqual([]);

    const done = await ok(tara, matching(python, 2, { batch: java }));
    expect(done).toMatchObject({ enrolled: 2, already: 0, message: "2 learners enrolled in Python – Oct 2026." });
    expect(await enrolled(python)).toEqual([leena.id, omar.id].sort());
    // Again: both already there, nothing written, nothing audited.
    expect(await ok(tara, matching(python, 2, { batch: java }))).toMatchObject({ enrolled: 0, already: 2 });
    expect((await act(omar, matching(python, 2, { batch: java }))).status).toBe(403);
    expect((await act(tara, matching("no-such-batch", 2, { batch: java }))).status).toBe(404);
    expect((await act(tara, matching(python, 0, { search: "nobody-at-all" }))).data).toMatchObject({
      message: batchMessages.noneMatching,
    });
    expect(await audit()).toEqual([
      ["Anita", "bulk-enrol", "Leena and Omar", 2],
      ["Tara", "bulk-enrol", "2 learners, in the batch Java – Nov 2026", 2],
    ]);
  });

  it("refuses more than 500 matching learners whole", async () => {
    await seedLearners(handle.db, { learners: 501, seed: 3 });
    const total = 501 + 3;
    const tooMany = await act(tara, matching(python, total, {}));
    expect(tooMany).toMatchObject({ status: 400, data: { message: batchMessages.tooManyMatching(total) } });
    expect(await enrolled(python)).toEqual([]);
    const ids = (await handle.db.selectFrom("user").select("id").where("role", "is", null).limit(501).execute()).map(
      (row) => row.id,
    );
    expect((await act(tara, { intent: "enrol-learners", batchId: python, learnerIds: ids.join(",") })).status).toBe(
      400,
    );
    expect(await enrolled(python)).toEqual([]);
  });

  it("exports exactly the ticked learners with the export's columns, formula-safe, or none if one is gone", async () => {
    await handle.db.updateTable("user").set({ username: "=HYPERLINK(1)" }).where("id", "=", omar.id).execute();
    const post = (who: Learner | null, learnerIds: string) =>
      exportSelectedResponse(
        new Request(`${appUrl}/staff/learners.csv`, {
          method: "POST",
          headers: { origin: appUrl, ...(who ? { cookie: who.cookie } : {}) },
          body: new URLSearchParams({ learnerIds }),
        }),
      );
    const response = await post(vikram, `${leena.id},${omar.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="learners-selected-/);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(exportColumns.map((column) => column.header).join(","));
    expect(lines).toHaveLength(3);
    expect(lines.some((line) => line.startsWith(`${leena.id},`))).toBe(true);
    expect(lines.find((line) => line.startsWith(`${omar.id},`))).toContain(",'=HYPERLINK(1),");
    expect(lines.some((line) => line.includes(priya.id))).toBe(false);

    expect((await post(leena, leena.id)).status).toBe(403);
    expect((await post(null, leena.id)).status).toBe(401);
    expect((await post(vikram, "")).status).toBe(400);
    await handle.db.deleteFrom("user").where("id", "=", priya.id).execute();
    const gone = await post(vikram, `${leena.id},${priya.id}`);
    expect(gone.status).toBe(409);
    expect(await gone.json()).toMatchObject({ gone: [priya.id] });
    expect(await audit()).toEqual([["Vikram", "export", "=HYPERLINK(1) and Leena", 2]]);
  });

  it("starts a trainer at their own batches, in the address; admins and staff without batches see everyone", async () => {
    await ok(admin, { intent: "enrol-learners", batchId: python, learnerIds: leena.id });
    await ok(admin, { intent: "enrol-learners", batchId: java, learnerIds: omar.id });
    const names = async (who: Learner, address: string) =>
      (await h.load<{ results: { learners: { username: string }[] } }>(who, address)).data.results.learners
        .map((learner) => learner.username)
        .sort();

    const landing = await h.load(tara, "/staff");
    expect([landing.status, landing.location]).toEqual([302, "/staff?batch=mine"]);
    expect((await h.load(tara, "/staff?sort=name")).location).toBe("/staff?sort=name&batch=mine");
    expect(await names(tara, "/staff?batch=mine")).toEqual(["Leena"]);
    expect(await names(vikram, "/staff?batch=mine")).toEqual(["Omar"]);
    // Cleared: "all" is said outright, so the default does not come back.
    expect(await names(tara, "/staff?batch=all")).toEqual(["Leena", "Omar", "Priya"]);
    expect((await h.load(tara, "/staff?q=omar")).status).toBe(200);
    expect((await h.load(admin, "/staff")).status).toBe(200);
    await h.setRole(priya, "staff");
    expect((await h.load(priya, "/staff")).status).toBe(200);
    expect(await names(priya, "/staff?batch=mine")).toEqual([]);

    const reviews = (who: Learner, query = "") =>
      outcome(() => loadReviews(new Request(`${appUrl}/staff/reviews${query}`, { headers: { cookie: who.cookie } })));
    expect((await reviews(tara)).location).toBe("/staff/reviews?batch=mine");
    expect((await reviews(tara, "?batch=all")).status).toBe(200);
    expect((await reviews(admin)).status).toBe(200);

    // A bulk send to "my batches" reaches the trainer's learners and the audit log names whose.
    await ok(tara, {
      intent: "bulk-send",
      kind: "notice",
      html: "Class moved to 7 pm.",
      search: "",
      course: "",
      batch: "mine",
      expectedCount: "1",
    });
    const [sent] = await handle.db.selectFrom("message").select("learnerId").execute();
    expect(sent?.learnerId).toBe(leena.id);
    expect((await audit()).at(-1)).toEqual(["Tara", "bulk-send", "1 learner, in the batches Tara trains", 1]);
  });

  it("lets a second trainer enrol, set work and review in a batch they don't train, named in the audit log", async () => {
    await ok(vikram, { intent: "enrol-learners", batchId: python, learnerIds: leena.id });
    const created = await ok(vikram, {
      intent: "create-assignment",
      batchId: python,
      title: "Loops",
      instructions: "Write three loops.",
      dueDate: inDays(7),
      dueTime: "18:00",
      handIn: "link",
      points: "",
    });
    const assignmentId = created.assignmentId as string;
    await h.act(leena, "/dashboard", { intent: "submit-assignment", assignmentId, link: "https://example.com/loops" });
    await ok(vikram, { intent: "review-submission", assignmentId, learnerId: leena.id, decision: "accept" });
    const rows = await handle.db
      .selectFrom("staff_audit")
      .select(["actorId", "actorName", "action"])
      .where("action", "in", ["bulk-enrol", "create-assignment", "accept-submission"])
      .orderBy("createdAt")
      .execute();
    expect(rows).toEqual([
      { actorId: vikram.id, actorName: "Vikram", action: "bulk-enrol" },
      { actorId: vikram.id, actorName: "Vikram", action: "create-assignment" },
      { actorId: vikram.id, actorName: "Vikram", action: "accept-submission" },
    ]);
  });
});
