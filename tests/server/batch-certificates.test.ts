import { afterEach, beforeEach, expect, it } from "vitest";
import type { BatchPageData } from "~/batches/batch-page.server";
import { calendarDate } from "~/core/dates";
import { batchCertificateMessages } from "~/documents/document-fields";
import { createCertificateJob, runJob } from "~/documents/issue-jobs.server";
import { listDocuments } from "~/documents/documents.server";
import { settingsMessages } from "~/documents/settings-rules";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness, type Learner } from "../support/test-app";

// Certificates for a batch's completers, on both databases, through the batch page's loader and
// action: who qualifies (every one of the batch's assignments given to them accepted, enrolled,
// a learner), the confirmation's list checked again on issue, one valid certificate per learner
// and batch whoever issues and however often, the audit row, and who may.

describeEachDatabase("batch certificates", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let leena: Learner;
  let omar: Learner;
  let priya: Learner;
  let nadia: Learner;
  let trainer: Learner;
  let otherStaff: Learner;
  let batchId: string;

  const act = async (who: Learner, fields: Record<string, string>) => {
    const answer = await h.act(who, "/staff/batches", fields);
    return { status: answer.status, ...(answer.data as { ok: boolean; message: string; count?: number }) };
  };
  const ok = async (who: Learner, fields: Record<string, string>) => {
    const answer = await act(who, fields);
    expect(answer, `${fields.intent}`).toMatchObject({ ok: true });
    return answer as { ok: true; message: string } & Record<string, unknown>;
  };
  const inDays = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), h.config.instituteTimeZone);
  const page = async (who: Learner = trainer) => {
    const loaded = await h.load<BatchPageData>(who, `/staff/batches/${batchId}`);
    return loaded.data!;
  };
  const completers = async () =>
    (await page()).completers.map((one) => [one.name, one.certificate === null ? "due" : "has it"]);
  const certificate = { title: "Python – Oct 2026", description: "", issuedOn: "", validUntil: "", hours: "60" };
  const issue = (who: Learner, learners: Learner[]) =>
    act(who, {
      intent: "issue-batch-certificates",
      batchId,
      learnerIds: learners.map((one) => one.id).join(","),
      ...certificate,
    });
  const deps = () => ({
    db: handle.db,
    bus: h.bus,
    storage: h.storage,
    mailer: h.services.mailer,
    logger: h.services.logger,
    config: h.config,
  });
  /** Runs every unfinished job to its end here (the harness's worker is stopped): how many were issued. */
  const runJobs = async () => {
    let issued = 0;
    const jobs = await handle.db.selectFrom("document_job").select("id").where("finishedAt", "is", null).execute();
    for (const job of jobs) issued += await runJob(deps(), job.id);
    return issued;
  };
  const batchDocuments = async () =>
    (
      await handle.db
        .selectFrom("document")
        .select(["learnerId", "batchId", "title", "revokedAt"])
        .where("batchId", "=", batchId)
        .orderBy("createdAt")
        .execute()
    ).map((row) => [row.learnerId, row.revokedAt === null ? "valid" : "revoked"]);

  const assign = async (fields: Record<string, string> = {}) =>
    (
      await ok(trainer, {
        intent: "create-assignment",
        batchId,
        title: `Exercise ${Math.random().toString(36).slice(2, 8)}`,
        instructions: "Hand in the repository link.",
        dueDate: inDays(7),
        dueTime: "18:00",
        handIn: "link",
        ...fields,
      })
    ).assignmentId as string;
  const hand = (who: Learner, assignmentId: string) =>
    h.act(who, "/dashboard", { intent: "submit-assignment", assignmentId, link: "https://example.com/work" });
  const accept = async (who: Learner, assignmentId: string) => {
    await hand(who, assignmentId);
    await ok(trainer, { intent: "review-submission", assignmentId, learnerId: who.id, decision: "accept" });
  };

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    // The jobs run on their own after the answer; these tests run them themselves.
    await h.services.documentJobs.stop();
    [leena, omar, priya, nadia, trainer, otherStaff] = await Promise.all([
      h.signUp("Leena"),
      h.signUp("Omar"),
      h.signUp("Priya"),
      h.signUp("Nadia"),
      h.signUp("Tara"),
      h.signUp("Vikram"),
    ]);
    await h.setRole(trainer, "staff");
    await h.setRole(otherStaff, "staff");
    await ok(trainer, {
      intent: "create-batch",
      name: "Python – Oct 2026",
      courseSlug: "python",
      schedule: "Mon–Fri 6–8 pm",
      startDate: inDays(-10),
      endDate: inDays(100),
      payment: "upfront",
    });
    batchId = (await handle.db.selectFrom("batch").select("id").executeTakeFirstOrThrow()).id;
    await ok(trainer, { intent: "enrol-learners", batchId, learnerIds: [leena.id, omar.id, priya.id].join(",") });
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  it("has no completers in a batch without assignments: a learner given none has completed nothing", async () => {
    expect(await completers()).toEqual([]);
    expect(await issue(trainer, [])).toMatchObject({ status: 400, message: batchCertificateMessages.noneQualify });
    // Naming a learner anyway: the list has changed from what the server finds, nothing issued.
    expect(await issue(trainer, [leena])).toMatchObject({ status: 409, message: batchCertificateMessages.changed });
    expect(await handle.db.selectFrom("document_job").select("id").execute()).toEqual([]);
    expect(
      await handle.db.selectFrom("staff_audit").select("action").where("action", "=", "issue-certificate").execute(),
    ).toEqual([]);
  });

  it("lists exactly the enrolled learners with every assignment accepted and issues each one certificate once", async () => {
    const first = await assign();
    const second = await assign();
    // Nadia is given the first assignment by name but is not in the batch.
    const third = await assign({ learnerIds: nadia.id });
    await accept(leena, first);
    await accept(leena, second);
    await accept(omar, first);
    await hand(omar, second); // submitted, not accepted
    await accept(nadia, third);
    expect(await completers()).toEqual([["Leena", "due"]]);

    // Refusals change nothing: a learner, a list from before, a batch that is not there.
    expect((await issue(leena, [leena])).status).toBe(403);
    expect(await issue(trainer, [leena, omar])).toMatchObject({
      status: 409,
      message: batchCertificateMessages.changed,
      count: 1,
    });
    expect(
      (
        await act(trainer, {
          intent: "issue-batch-certificates",
          batchId: "x".repeat(36),
          learnerIds: leena.id,
          ...certificate,
        })
      ).status,
    ).toBe(404);
    expect(await handle.db.selectFrom("document_job").select("id").execute()).toEqual([]);

    expect(await issue(trainer, [leena])).toMatchObject({ status: 200, count: 1 });
    const audit = await handle.db
      .selectFrom("staff_audit")
      .select(["action", "actorName", "detail", "target", "count"])
      .where("action", "=", "issue-certificate")
      .execute();
    expect(audit.map((row) => [row.action, row.actorName, row.detail, row.target, Number(row.count)])).toEqual([
      ["issue-certificate", "Tara", "Python – Oct 2026", "Python – Oct 2026: Leena", 1],
    ]);
    // Another staff member, while the first issue is still being made: refused, nothing twice.
    expect(await issue(otherStaff, [leena])).toMatchObject({ status: 409, message: batchCertificateMessages.running });
    expect(await runJobs()).toBe(1);
    expect(await batchDocuments()).toEqual([[leena.id, "valid"]]);
    const [held] = await listDocuments(handle.db, leena.id, "certificate");
    expect(held).toMatchObject({ title: "Python – Oct 2026", hours: 60, holderName: "Leena" });
    expect(await completers()).toEqual([["Leena", "has it"]]);
    expect((await page()).completers[0]!.certificate).toBe(held!.code);

    // Issued again, by anyone: she already has it.
    expect(await issue(otherStaff, [])).toMatchObject({ status: 400, message: batchCertificateMessages.allHaveIt });
    expect(await issue(otherStaff, [leena])).toMatchObject({ status: 409, count: 0 });
    // Even a job that names her (made before hers was issued, say) passes her over.
    await createCertificateJob(handle.db, {
      content: {
        ...JSON.parse((await handle.db.selectFrom("document_job").select("fields").executeTakeFirstOrThrow()).fields),
        batchId,
      },
      learners: { learnerIds: [leena.id] },
      total: 1,
      createdBy: trainer.id,
    });
    expect(await runJobs()).toBe(0);

    // Omar's last assignment accepted: he joins the list; the second staff member issues his alone.
    await ok(trainer, { intent: "review-submission", assignmentId: second, learnerId: omar.id, decision: "accept" });
    expect(await completers()).toEqual([
      ["Leena", "has it"],
      ["Omar", "due"],
    ]);
    expect(await issue(otherStaff, [omar])).toMatchObject({ status: 200, count: 1 });
    expect(await runJobs()).toBe(1);
    expect(await batchDocuments()).toEqual([
      [leena.id, "valid"],
      [omar.id, "valid"],
    ]);
    expect(await listDocuments(handle.db, priya.id)).toEqual([]);
    expect(await listDocuments(handle.db, nadia.id)).toEqual([]);

    // A revoked certificate leaves room for a new one.
    await h.setRole(otherStaff, "admin");
    await ok(otherStaff, {
      intent: "revoke-document",
      learnerId: leena.id,
      documentId: held!.id,
      reason: "Wrong hours.",
    });
    expect(await completers()).toEqual([
      ["Leena", "due"],
      ["Omar", "has it"],
    ]);
    expect(await issue(otherStaff, [leena])).toMatchObject({ status: 200, count: 1 });
    expect(await runJobs()).toBe(1);
    expect(await batchDocuments()).toEqual([
      [leena.id, "revoked"],
      [omar.id, "valid"],
      [leena.id, "valid"],
    ]);
  });

  it("issues nothing until someone is set to sign documents", async () => {
    await handle.db.deleteFrom("document_settings").execute();
    const only = await assign();
    await accept(leena, only);
    expect(await issue(trainer, [leena])).toMatchObject({ status: 409, message: settingsMessages.noSignatory });
    expect((await page()).signatorySet).toBe(false);
    expect(await handle.db.selectFrom("document_job").select("id").execute()).toEqual([]);
  });
});
