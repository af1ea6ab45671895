import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { documentMessages } from "~/documents/document-fields";
import { runJob, batchSize } from "~/documents/issue-jobs.server";
import type { DashboardData } from "~/dashboard/dashboard-page.server";
import { describeEachDatabase, insertUser, stampFor, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness, type Learner } from "../support/test-app";
import { calendarDate } from "~/core/dates";

// Issuing certificates and offer letters as PDFs: who may, what is recorded and audited, who
// may download and answer, on SQLite and PostgreSQL.

const certificate = {
  title: "Full Stack Web Development",
  description: "HTML, CSS, JavaScript, React and Node.js.",
  issuedOn: "",
  validUntil: "",
  hours: "480",
};

const offer = {
  title: "Junior Web Developer",
  issuedOn: "",
  startDate: "2099-01-04",
  location: "Pune",
  payKind: "stipend",
  payAmount: "25,000.50",
  payPeriod: "month",
  replyBy: "2099-01-01",
  body: "We are pleased to offer you this position.\n\nWelcome!",
};

/** The text pdftotext finds in a PDF. */
function pdfText(pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "upskill-pdf-")), "document.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

describeEachDatabase("documents: issuing, downloading, answering", (database) => {
  let handle: TestDatabaseHandle;
  let app: Harness;
  let admin: Learner;
  let staff: Learner;
  let ananya: Learner;
  let ravi: Learner;

  beforeEach(async () => {
    handle = await database.open();
    app = await createHarness(handle);
    admin = await app.signUp("Admin");
    staff = await app.signUp("Trainer");
    ananya = await app.signUp("Ananya");
    // Her name as she wrote it (the email the harness makes comes from the name).
    await handle.db.updateTable("user").set({ username: "अनन्या शर्मा" }).where("id", "=", ananya.id).execute();
    ravi = await app.signUp("Ravi");
    await app.setRole(admin, "admin");
    await app.setRole(staff, "trainer");
  });
  afterEach(async () => {
    await app.dispose();
    await handle.dispose();
  });

  /** The trainer issues the certificate to the two learners ticked in the staff list (as a job). */
  const issueToAnanyaAndRavi = () =>
    app.act(staff, "/staff", {
      intent: "issue-certificate",
      learnerIds: [ananya.id, ravi.id].join(","),
      ...certificate,
    });
  /** What a certificate job runs with, for the tests that run jobs themselves. */
  const jobDeps = () => ({
    db: handle.db,
    bus: app.bus,
    storage: app.storage,
    mailer: app.services.mailer,
    logger: app.services.logger,
    config: app.config,
  });
  const documents = () => handle.db.selectFrom("document").selectAll().orderBy("statusIndex").execute();
  const audit = () =>
    handle.db.selectFrom("staff_audit").select(["action", "detail", "target", "count", "actorName"]).execute();

  it("lets staff issue a certificate: stored PDF with the name, title and code, audited, emailed", async () => {
    const issued = await app.act(staff, `/staff/learners/${ananya.id}`, {
      intent: "issue-certificate",
      learnerIds: ananya.id,
      ...certificate,
    });
    expect(issued).toMatchObject({ status: 200, data: { ok: true, message: "Certificate issued to अनन्या शर्मा." } });
    const [row] = await documents();
    expect(row).toMatchObject({
      kind: "certificate",
      learnerId: ananya.id,
      holderName: "अनन्या शर्मा",
      title: certificate.title,
      issuedOn: calendarDate(new Date(), app.config.instituteTimeZone),
      hours: 480,
      statusIndex: 0,
      issuerName: app.config.site.name,
      issuerUrl: app.config.appUrl,
    });
    expect(row!.code).toMatch(/^UPS-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(row!.storageKey).toMatch(/^documents\/[0-9a-f]{32}\.pdf$/);
    expect(await audit()).toEqual([
      { action: "issue-certificate", detail: certificate.title, target: "अनन्या शर्मा", count: 1, actorName: "Trainer" },
    ]);

    // The holder downloads it: a PDF whose text has the name, the title and the code.
    const response = await app.call(ananya, "GET", `/api/documents/${row!.code}/pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(`attachment; filename="Certificate - Full Stack`);
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 4).toString()).toBe("%PDF");
    expect(pdf.length).toBeLessThan(150 * 1024);
    const { createHash } = await import("node:crypto");
    expect(createHash("sha256").update(pdf).digest("hex")).toBe(row!.sha256);
    const text = pdfText(pdf);
    expect(text).toContain("अनन्या");
    expect(text).toContain(certificate.title);
    expect(text).toContain(row!.code);
    expect(text).toContain(`${app.config.appUrl}/verify/${row!.code}`);

    // The code typed loosely finds it too; another learner and a visitor get 404, staff get it.
    expect((await app.call(ananya, "GET", `/api/documents/${row!.code.toLowerCase()}/pdf`)).status).toBe(200);
    expect((await app.call(ravi, "GET", `/api/documents/${row!.code}/pdf`)).status).toBe(404);
    expect((await app.call(null, "GET", `/api/documents/${row!.code}/pdf`)).status).toBe(404);
    expect((await app.call(admin, "GET", `/api/documents/${row!.code}/pdf`)).status).toBe(200);
    expect((await app.call(ananya, "GET", `/api/documents/not-a-code/pdf`)).status).toBe(404);

    // The email with the PDF attached, queued with the document and sent by the mail worker.
    await app.services.mailWorker.runOnce();
    const outbox = path.join(app.dataDir, "outbox");
    await expect.poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).length : 0)).toBe(1);
    const mail = fs.readFileSync(path.join(outbox, fs.readdirSync(outbox)[0]!), "utf8");
    expect(mail).toContain("Subject: Your certificate: Full Stack Web Development");
    expect(mail).toContain("Content-Type: application/pdf");

    // The learner's certificate popup lists it; the notices popup reads no documents.
    const popup = await app.load<DashboardData>(ananya, "/dashboard?show=certificates");
    expect(popup.data.popup?.documents.map((d) => d.code)).toEqual([row!.code]);
    const notices = await app.load<DashboardData>(ananya, "/dashboard?show=notices");
    expect(notices.data.popup?.documents).toEqual([]);
    expect((await app.load<DashboardData>(ravi, "/dashboard?show=certificates")).data.popup?.documents).toEqual([]);
  });

  it("moves the holder's and staff's kept answers when a certificate is issued or revoked, not another learner's", async () => {
    const stampOf = async (person: Learner) => {
      const { token } = await handle.db
        .selectFrom("session")
        .select("token")
        .where("userId", "=", person.id)
        .orderBy("createdAt", "desc")
        .executeTakeFirstOrThrow();
      return stampFor(handle, token);
    };
    const stamps = async () => ({
      ananya: await stampOf(ananya),
      ravi: await stampOf(ravi),
      staff: await stampOf(staff),
    });
    let before = await stamps();
    const issued = await app.act(staff, `/staff/learners/${ananya.id}`, {
      intent: "issue-certificate",
      learnerIds: ananya.id,
      ...certificate,
    });
    expect(issued.status).toBe(200);
    let after = await stamps();
    expect(after.ananya).not.toBe(before.ananya);
    expect(after.staff).not.toBe(before.staff);
    expect(after.ravi).toBe(before.ravi);

    const [row] = await documents();
    before = after;
    const revoked = await app.act(admin, `/staff/learners/${ananya.id}`, {
      intent: "revoke-document",
      learnerId: ananya.id,
      documentId: row!.id,
      reason: "Issued to the wrong batch.",
    });
    expect(revoked.status, JSON.stringify(revoked.data)).toBe(200);
    after = await stamps();
    expect(after.ananya).not.toBe(before.ananya);
    expect(after.ravi).toBe(before.ravi);
  });

  it("refuses learners, checks the fields, and never issues to someone who is not a learner", async () => {
    const asLearner = await app.act(ravi, "/staff", {
      intent: "issue-certificate",
      learnerIds: ananya.id,
      ...certificate,
    });
    expect(asLearner.status).toBe(403);
    const noTitle = await app.act(staff, "/staff", {
      intent: "issue-certificate",
      learnerIds: ananya.id,
      ...certificate,
      title: "  ",
    });
    expect(noTitle).toMatchObject({ status: 400, data: { message: documentMessages.noTitle } });
    const longTitle = await app.act(staff, "/staff", {
      intent: "issue-certificate",
      learnerIds: ananya.id,
      ...certificate,
      title: "x".repeat(100_000),
    });
    expect(longTitle).toMatchObject({ status: 400, data: { message: documentMessages.titleTooLong } });
    const badDates = await app.act(staff, "/staff", {
      intent: "issue-certificate",
      learnerIds: ananya.id,
      ...certificate,
      issuedOn: "2026-05-01",
      validUntil: "2026-04-30",
    });
    expect(badDates).toMatchObject({ status: 400, data: { message: documentMessages.validBeforeIssue } });
    const notADate = await app.act(staff, "/staff", {
      intent: "issue-certificate",
      learnerIds: ananya.id,
      ...certificate,
      issuedOn: "2026-02-30",
    });
    expect(notADate).toMatchObject({ status: 400, data: { message: documentMessages.badDate } });
    const badHours = await app.act(staff, "/staff", {
      intent: "issue-certificate",
      learnerIds: ananya.id,
      ...certificate,
      hours: "1.5",
    });
    expect(badHours).toMatchObject({ status: 400, data: { message: documentMessages.badHours } });
    const toStaff = await app.act(admin, "/staff", {
      intent: "issue-certificate",
      learnerIds: staff.id,
      ...certificate,
    });
    expect(toStaff.status).toBe(404);
    expect(await documents()).toEqual([]);
    expect(await audit()).toEqual([]);
  });

  it("issues to ticked and to matching learners as a job, each once, with unique codes and status positions", async () => {
    const extra: { id: string }[] = [];
    for (let i = 0; i < batchSize + 3; i++) {
      const id = await insertUser(handle.db, { name: `Batch${i}`, email: `batch${i}@example.com` });
      await handle.db.updateTable("user").set({ course: "Java" }).where("id", "=", id).execute();
      extra.push({ id });
    }
    // The jobs run on their own after the answer; this test runs them itself, step by step.
    await app.services.documentJobs.stop();

    expect(await issueToAnanyaAndRavi()).toMatchObject({ status: 200, data: { ok: true, count: 2 } });
    const wrongCount = await app.act(staff, "/staff", {
      intent: "issue-certificates-matching",
      search: "",
      course: "Java",
      expectedCount: "5",
      ...certificate,
    });
    expect(wrongCount).toMatchObject({ status: 409, data: { count: extra.length } });
    const matching = await app.act(staff, "/staff", {
      intent: "issue-certificates-matching",
      search: "",
      course: "Java",
      expectedCount: String(extra.length),
      ...certificate,
    });
    expect(matching).toMatchObject({ status: 200, data: { ok: true, count: extra.length } });
    expect(await documents()).toEqual([]);

    const deps = jobDeps();
    const jobs = await handle.db.selectFrom("document_job").select("id").orderBy("createdAt").execute();
    expect(jobs).toHaveLength(2);
    expect(await runJob(deps, jobs[0]!.id)).toBe(2);
    // A stop after the first batch: the next run goes on from there.
    let batches = 0;
    expect(await runJob(deps, jobs[1]!.id, () => batches++ < 1)).toBe(batchSize);
    expect(await runJob(deps, jobs[1]!.id)).toBe(3);
    expect(await runJob(deps, jobs[1]!.id)).toBe(0);

    const rows = await documents();
    expect(rows).toHaveLength(2 + extra.length);
    expect(new Set(rows.map((r) => r.learnerId))).toEqual(new Set([ananya.id, ravi.id, ...extra.map((l) => l.id)]));
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    expect(rows.map((r) => r.statusIndex)).toEqual(rows.map((_, i) => i));
    const done = await handle.db.selectFrom("document_job").select(["issued", "total", "finishedAt"]).execute();
    expect(done.map((job) => [job.issued, job.total, job.finishedAt !== null])).toEqual([
      [2, 2, true],
      [extra.length, extra.length, true],
    ]);
    expect(await audit()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: "issue-certificate", target: "Ravi and अनन्या शर्मा", count: 2 }),
        expect.objectContaining({ action: "issue-certificate", target: `${extra.length} learners in Java` }),
      ]),
    );
  }, 120_000);

  it("lets a job go at once when a batch fails, so the next run issues it whole", async () => {
    await app.services.documentJobs.stop();
    expect(await issueToAnanyaAndRavi()).toMatchObject({ status: 200, data: { ok: true, count: 2 } });
    const [job] = await handle.db.selectFrom("document_job").select("id").execute();
    const deps = jobDeps();
    const fullDisk = {
      ...app.storage,
      put: () => Promise.reject(new Error("ENOSPC: no space left on device")),
    };
    await expect(runJob({ ...deps, storage: fullDisk }, job!.id)).rejects.toThrow("ENOSPC");
    const held = await handle.db.selectFrom("document_job").select(["lockedUntil", "cursor"]).execute();
    expect(held).toEqual([{ lockedUntil: null, cursor: null }]);
    expect(await documents()).toEqual([]);

    expect(await runJob(deps, job!.id)).toBe(2);
    expect((await documents()).map((row) => row.learnerId).sort()).toEqual([ananya.id, ravi.id].sort());
  });

  it("lets only admins issue offer letters; only the holder answers, once, before the reply-by date", async () => {
    const byStaff = await app.act(staff, `/staff/learners/${ananya.id}`, {
      intent: "issue-offer-letter",
      learnerId: ananya.id,
      ...offer,
    });
    expect(byStaff).toMatchObject({ status: 403, data: { message: documentMessages.staffCannotIssueOffer } });
    const byLearner = await app.act(ravi, "/staff", { intent: "issue-offer-letter", learnerId: ananya.id, ...offer });
    expect(byLearner.status).toBe(403);
    const badPay = await app.act(admin, "/staff", {
      intent: "issue-offer-letter",
      learnerId: ananya.id,
      ...offer,
      payAmount: "25k",
    });
    expect(badPay).toMatchObject({ status: 400, data: { message: documentMessages.badPay } });
    expect(await documents()).toEqual([]);

    const issued = await app.act(admin, `/staff/learners/${ananya.id}`, {
      intent: "issue-offer-letter",
      learnerId: ananya.id,
      ...offer,
    });
    expect(issued).toMatchObject({ status: 200, data: { ok: true } });
    const [letter] = await documents();
    expect(letter).toMatchObject({
      kind: "offer-letter",
      title: offer.title,
      payKind: "stipend",
      payPeriod: "month",
      replyBy: offer.replyBy,
      response: null,
    });
    expect(Number(letter!.payAmountPaise)).toBe(2_500_050);
    expect(letter!.body).toContain("<p>We are pleased");
    const text = pdfText(
      Buffer.from(await (await app.call(ananya, "GET", `/api/documents/${letter!.code}/pdf`)).arrayBuffer()),
    );
    expect(text).toContain("₹25,000.50 per month");
    expect(text).toContain("We are pleased to offer you this position.");
    expect(await audit()).toEqual([
      expect.objectContaining({ action: "issue-offer-letter", detail: offer.title, target: "अनन्या शर्मा" }),
    ]);

    // Another learner can neither answer it nor download it.
    const byOther = await app.act(ravi, "/dashboard", {
      intent: "answer-offer",
      documentId: letter!.id,
      answer: "accepted",
    });
    expect(byOther).toMatchObject({ status: 404, data: { message: documentMessages.notYours } });
    expect((await app.call(ravi, "GET", `/api/documents/${letter!.code}/pdf`)).status).toBe(404);
    const nonsense = await app.act(ananya, "/dashboard", {
      intent: "answer-offer",
      documentId: letter!.id,
      answer: "maybe",
    });
    expect(nonsense.status).toBe(400);

    const accepted = await app.act(ananya, "/dashboard", {
      intent: "answer-offer",
      documentId: letter!.id,
      answer: "accepted",
    });
    expect(accepted).toMatchObject({ status: 200, data: { ok: true, message: documentMessages.accepted } });
    const again = await app.act(ananya, "/dashboard", {
      intent: "answer-offer",
      documentId: letter!.id,
      answer: "declined",
    });
    expect(again).toMatchObject({ status: 409, data: { message: documentMessages.answered } });
    const [answered] = await documents();
    expect(answered).toMatchObject({ response: "accepted" });
    expect(answered!.respondedAt).not.toBeNull();

    // Staff see the answer on the learner's page.
    const page = await app.load<{ documents: { response: string | null; respondedAt: string | null }[] }>(
      staff,
      `/staff/learners/${ananya.id}`,
    );
    expect(page.data.documents[0]).toMatchObject({ response: "accepted" });

    // Past the reply-by date an unanswered offer can't be answered.
    await handle.db.updateTable("document").set({ response: null, respondedAt: null, replyBy: "2000-01-01" }).execute();
    const late = await app.act(ananya, "/dashboard", {
      intent: "answer-offer",
      documentId: letter!.id,
      answer: "accepted",
    });
    expect(late).toMatchObject({ status: 409, data: { message: documentMessages.tooLate } });
  });

  it("keeps codes unique in the database, whatever the code generator does", async () => {
    await app.act(staff, "/staff", { intent: "issue-certificate", learnerIds: ananya.id, ...certificate });
    const [row] = await documents();
    await expect(
      handle.db
        .insertInto("document")
        .values({ ...row!, id: "another", statusIndex: 99, payAmountPaise: null })
        .execute(),
    ).rejects.toThrow();
  });
});
