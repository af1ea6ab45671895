import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { addMonths } from "~/placement/fees";
import type { LearnerPlacement } from "~/placement/learner-placement.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { minimalPdf } from "../support/minimal-pdf";
import { createHarness, type Harness, type Learner } from "../support/test-app";
import { calendarDate } from "~/core/dates";

// Placement on both databases, through the pages' loaders and actions as each kind of person:
// the fee schedule's arithmetic end to end, the window, the threshold, pauses, waivers, and who
// may do what.

type MyPage = { placement: LearnerPlacement; today: string };
type BatchesData = { batches: { id: string; name: string }[]; terms: { id: string; name: string }[] };
type Dashboard = {
  placement: {
    awaiting: { enrolmentId: string; batchName: string; text: string }[];
    consent: { givenAt: string } | null;
  };
};
type Board = { columns: { stage: string; count: number; cards: { learner: string }[] }[] };

const pdf = (text = "offer") => new Blob([new Uint8Array(minimalPdf(text))], { type: "application/pdf" });

describeEachDatabase("placement: batches, offers, fees", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let learner: Learner;
  let other: Learner;
  let staff: Learner;
  let admin: Learner;
  let today: string;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    [learner, other, staff, admin] = await Promise.all([
      h.signUp("Leena"),
      h.signUp("Omar"),
      h.signUp("Sita"),
      h.signUp("Arun"),
    ]);
    await h.setRole(staff, "staff");
    await h.setRole(admin, "admin");
    today = calendarDate(new Date(), h.config.instituteTimeZone);
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const ok = async (who: Learner, address: string, fields: Record<string, string> | FormData) => {
    const answer = await h.act(who, address, fields);
    expect(
      answer.data,
      `${address} ${fields instanceof FormData ? fields.get("intent") : fields.intent}`,
    ).toMatchObject({
      ok: true,
    });
    return answer;
  };
  const mine = async (who: Learner = learner) => (await h.load<MyPage>(who, "/placement")).data.placement;
  const batches = async () => (await h.load<BatchesData>(staff, "/staff/batches")).data;
  const daysFromToday = (days: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  /** Terms, a PAP batch ending `endDaysAgo` days ago, the learner enrolled, seeking, agreement accepted. */
  async function enrolled(terms: Record<string, string> = {}, endDaysAgo = 60, accept = true) {
    await ok(admin, "/staff/batches", {
      intent: "define-terms",
      name: "PAP 12.5",
      threshold: "3,00,000",
      feeKind: "percent",
      feePercent: "12.5",
      feeAmount: "",
      cap: "60,000",
      instalments: "3",
      windowMonths: "6",
      gst: "18",
      pauseRule: "Instalments pause while you earn below the threshold.",
      ...terms,
    });
    const termsId = (await batches()).terms[0]!.id;
    await ok(staff, "/staff/batches", {
      intent: "create-batch",
      name: "Web Dev – Jan 2027",
      courseSlug: "web-development",
      startDate: daysFromToday(-endDaysAgo - 120),
      endDate: daysFromToday(-endDaysAgo),
      payment: "pap",
      termsId,
    });
    const batchId = (await batches()).batches[0]!.id;
    await ok(staff, "/staff/placement", { intent: "enrol", learnerId: learner.id, batchId, seeking: "yes" });
    const enrolmentId = (await mine()).enrolments[0]!.id;
    if (accept) await ok(learner, "/placement", { intent: "accept-agreement", enrolmentId });
    return { enrolmentId, batchId };
  }

  async function offer(fixedCtc: string, joiningDate: string, company = "Acme") {
    await ok(learner, "/placement", { intent: "add-application", company, role: "Developer", source: "own" });
    const applicationId = (await mine()).applications.find((a) => a.company === company)!.id;
    const form = new FormData();
    for (const [name, value] of Object.entries({
      intent: "record-offer",
      applicationId,
      fixedCtc,
      variableCtc: "50,000",
      location: "Pune",
      offerDate: daysFromToday(-50),
      joiningDate,
    })) {
      form.set(name, value);
    }
    form.set("offerLetter", pdf(), "offer.pdf");
    await ok(learner, "/placement", form);
    await ok(learner, "/placement", { intent: "move-application", applicationId, stage: "accepted" });
    return applicationId;
  }

  it("turns a verified, accepted offer above the threshold into instalments summing exactly, then payments, pauses and waivers", async () => {
    const { enrolmentId } = await enrolled({ cap: "" });
    const joining = daysFromToday(-45);
    const applicationId = await offer("4,56,789.50", joining);

    // Not verified yet: nothing is owed.
    expect((await mine()).enrolments[0]!.instalments).toEqual([]);
    await ok(staff, "/staff/placement", { intent: "verify-offer", applicationId });

    const placement = await mine();
    const [enrolment] = placement.enrolments;
    // 12.5 % of ₹4,56,789.50 = 57,098.6875 → 5,709,868 paise (floored); GST 18 % = 1,027,776.24 → 1,027,776.
    expect(enrolment!.agreement?.decisionText).toBe(
      "₹67,376.44 is owed (₹57,098.68 fee and ₹10,277.76 GST), in 3 instalments.",
    );
    expect(enrolment!.instalments.map((i) => [i.number, i.dueDate, i.feePaise, i.gstPaise, i.totalPaise])).toEqual([
      [1, addMonths(joining, 1), 1_903_290, 342_592, 2_245_882],
      [2, addMonths(joining, 2), 1_903_289, 342_592, 2_245_881],
      [3, addMonths(joining, 3), 1_903_289, 342_592, 2_245_881],
    ]);
    expect(placement.applications[0]!.offer).toMatchObject({ status: "verified", reviewedBy: "Sita" });
    // The first fell due 15 days ago or so: overdue, computed; the last is a month or more away.
    expect(enrolment!.instalments.map((i) => i.state)).toEqual(["overdue", "due", "upcoming"]);

    const [first, second, third] = enrolment!.instalments;
    const pay = (instalmentId: string, amount: string) =>
      h.act(staff, "/staff/placement", {
        intent: "record-payment",
        instalmentId,
        amount,
        paidOn: today,
        reference: "UTR 1",
      });
    expect((await pay(first!.id, "22,458.83")).status).toBe(400); // a paisa more than is left
    expect((await pay(first!.id, "20,000")).data.ok).toBe(true);
    expect((await mine()).enrolments[0]!.instalments[0]).toMatchObject({ paidPaise: 2_000_000, state: "overdue" });
    expect((await pay(first!.id, "2,458.82")).data.ok).toBe(true);
    expect((await mine()).enrolments[0]!.instalments[0]).toMatchObject({ paidPaise: 2_245_882, state: "paid" });
    expect((await pay(first!.id, "1")).status).toBe(409);

    // A pause covers what falls due by its end; staff may pause, only admins waive.
    await ok(staff, "/staff/placement", {
      intent: "pause-fees",
      enrolmentId,
      until: daysFromToday(40),
      reason: "Lost the job",
    });
    expect((await mine()).enrolments[0]!.instalments.map((i) => i.state)).toEqual(["paid", "paused", "upcoming"]);
    const staffWaive = await h.act(staff, "/staff/placement", {
      intent: "waive-instalment",
      instalmentId: third!.id,
      reason: "Hardship",
    });
    expect(staffWaive).toMatchObject({ status: 403, data: { message: "Only admins can waive an instalment." } });
    await ok(admin, "/staff/placement", { intent: "waive-instalment", instalmentId: third!.id, reason: "Hardship" });
    const after = (await mine()).enrolments[0]!.instalments;
    expect(after.map((i) => i.state)).toEqual(["paid", "paused", "waived"]);
    expect(after[2]!.waiver).toMatchObject({ by: "Arun", reason: "Hardship" });
    expect(second!.state).toBe("due");

    // Every staff change is in the audit log.
    const actions = (await handle.db.selectFrom("staff_audit").select("action").orderBy("createdAt").execute()).map(
      (r) => r.action,
    );
    expect(actions).toEqual([
      "define-terms",
      "create-batch",
      "enrol",
      "verify-offer",
      "record-payment",
      "record-payment",
      "pause-fees",
      "waive-instalment",
    ]);
  });

  it("caps the fee before GST", async () => {
    await enrolled();
    const applicationId = await offer("6,00,000", daysFromToday(-45));
    await ok(staff, "/staff/placement", { intent: "verify-offer", applicationId });
    const [enrolment] = (await mine()).enrolments;
    // 12.5 % of ₹6,00,000 is ₹75,000, capped at ₹60,000; GST ₹10,800.
    expect(enrolment!.instalments.map((i) => i.totalPaise)).toEqual([2_360_000, 2_360_000, 2_360_000]);
    expect(enrolment!.agreement?.decisionText).toBe("₹70,800 is owed (₹60,000 fee and ₹10,800 GST), in 3 instalments.");
  });

  it("owes nothing below the threshold, or after the window, and says why", async () => {
    await enrolled();
    const low = await offer("2,99,999.99", daysFromToday(-45), "Low Pay Ltd");
    await ok(staff, "/staff/placement", { intent: "verify-offer", applicationId: low });
    const [enrolment] = (await mine()).enrolments;
    expect(enrolment!.instalments).toEqual([]);
    expect(enrolment!.agreement).toMatchObject({ decision: "below-threshold" });
    expect(enrolment!.agreement?.decisionText).toBe(
      "Nothing is owed: the offer's fixed CTC of ₹2,99,999.99 a year is below the agreement's threshold of ₹3,00,000.",
    );
  });

  it("owes nothing when the joining date is after the placement window", async () => {
    // The batch ended 300 days ago; the window was 6 months.
    await enrolled({}, 300);
    const late = await offer("9,00,000", daysFromToday(-10));
    await ok(staff, "/staff/placement", { intent: "verify-offer", applicationId: late });
    const [enrolment] = (await mine()).enrolments;
    expect(enrolment!.instalments).toEqual([]);
    expect(enrolment!.agreement?.decision).toBe("outside-window");
    expect(enrolment!.agreement?.decisionText).toMatch(
      /^Nothing is owed: the joining date, .* is after the placement window, which ended on /,
    );
  });

  it("keeps a rejected offer out of the fees; the learner corrects it and it waits for verification again", async () => {
    await enrolled();
    const applicationId = await offer("6,00,000", daysFromToday(-45));
    await ok(staff, "/staff/placement", { intent: "reject-offer", applicationId, reason: "The letter is unsigned." });
    let placement = await mine();
    expect(placement.applications[0]!.offer).toMatchObject({
      status: "rejected",
      rejectReason: "The letter is unsigned.",
    });
    expect(placement.enrolments[0]!.instalments).toEqual([]);
    expect(placement.enrolments[0]!.agreement?.decision).toBeNull();
    // A rejected offer can't be verified without being sent again.
    expect((await h.act(staff, "/staff/placement", { intent: "verify-offer", applicationId })).status).toBe(409);

    const form = new FormData();
    for (const [name, value] of Object.entries({
      intent: "record-offer",
      applicationId,
      fixedCtc: "6,00,000",
      location: "Pune",
      offerDate: daysFromToday(-50),
      joiningDate: daysFromToday(-45),
    })) {
      form.set(name, value);
    }
    form.set("offerLetter", pdf("signed"), "offer-signed.pdf");
    await ok(learner, "/placement", form);
    placement = await mine();
    expect(placement.applications[0]!.offer).toMatchObject({ status: "pending", fileName: "offer-signed.pdf" });
    // Only one offer letter is stored: the corrected one replaced the first.
    expect((await h.files()).filter((name) => name.includes("offers/"))).toHaveLength(1);
  });

  it("refuses an offer letter that isn't a PDF by its structure, and one past 5 MB, with the reason", async () => {
    await ok(learner, "/placement", { intent: "add-application", company: "Acme", role: "Developer", source: "own" });
    const applicationId = (await mine()).applications[0]!.id;
    const fields = {
      intent: "record-offer",
      applicationId,
      fixedCtc: "6,00,000",
      location: "Pune",
      offerDate: today,
      joiningDate: today,
    };
    const send = async (file: Blob, name = "offer.pdf") => {
      const form = new FormData();
      for (const [field, value] of Object.entries(fields)) form.set(field, value);
      form.set("offerLetter", file, name);
      return h.act(learner, "/placement", form);
    };
    const real = minimalPdf();
    const notPdf = { status: 415, data: { message: "Upload the offer letter as a PDF file." } };
    for (const [what, bytes] of [
      ["another kind of file", Buffer.from("MZ not a pdf")],
      ["only the first bytes of a PDF", Buffer.from("%PDF-1.4\noffer\n%%EOF\n")],
      ["a PDF header before HTML", Buffer.from("%PDF-1.7\n<html><script>alert(1)</script></html>")],
      ["a PDF cut short", real.subarray(0, real.length - 60)],
      [
        "its cross-reference offset moved",
        Buffer.from(real.toString("latin1").replace(/startxref\n\d+/, "startxref\n9")),
      ],
      ["a trailer naming no catalog", Buffer.from(real.toString("latin1").replace("/Root 1 0 R", "/Root 9 0 R"))],
      ["5 MB of junk after a PDF header", Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(5_000_000, 0x41)])],
    ] as const) {
      const started = performance.now();
      expect(await send(new Blob([new Uint8Array(bytes)])), what).toMatchObject(notPdf);
      expect(performance.now() - started, what).toBeLessThan(2_000);
    }
    expect(await send(new Blob([new Uint8Array(5 * 1024 * 1024 + 70 * 1024)]))).toMatchObject({
      status: 413,
      data: { message: "Attach the offer letter as a PDF of at most 5 MB." },
    });
    expect((await h.files()).filter((name) => name.includes("offers/"))).toEqual([]);

    // Real PDFs: a cross-reference table, and (as qpdf rewrites it) a compressed cross-reference stream.
    const compressed = path.join(h.dataDir, "compressed.pdf");
    const plain = path.join(h.dataDir, "plain.pdf");
    fs.writeFileSync(plain, real);
    const qpdf = spawnSync("qpdf", ["--object-streams=generate", plain, compressed], { encoding: "utf8" });
    expect(qpdf.status, qpdf.stderr).toBe(0);
    expect(fs.readFileSync(compressed, "latin1")).toMatch(/\/Type\s*\/XRef/);
    for (const bytes of [real, fs.readFileSync(compressed)]) {
      expect((await send(new Blob([new Uint8Array(bytes)]))).status).toBe(200);
    }
  });

  it("stores an offer letter's file name by the rule every stored file name follows", async () => {
    await ok(learner, "/placement", { intent: "add-application", company: "Acme", role: "Developer", source: "own" });
    const applicationId = (await mine()).applications[0]!.id;
    const record = async (name: string) => {
      const form = new FormData();
      for (const [field, value] of Object.entries({
        intent: "record-offer",
        applicationId,
        fixedCtc: "6,00,000",
        location: "Pune",
        offerDate: today,
        joiningDate: today,
      })) {
        form.set(field, value);
      }
      form.set("offerLetter", pdf(), name);
      await ok(learner, "/placement", form);
      const stored = await handle.db.selectFrom("job_offer").select("fileName").executeTakeFirstOrThrow();
      expect((await mine()).applications[0]!.offer?.fileName).toBe(stored.fileName);
      return stored.fileName;
    };
    expect(await record("a\r\n../b.pdf")).toBe("b.pdf");
    expect(await record("C:\\fakepath\\offer\u202Efdp.exe")).toBe("offerfdp.exe");
    expect(await record("..")).toBe("offer-letter.pdf");
    const long = await record(`${"ऑफ़र".repeat(100)}.pdf`);
    expect([[...long].length, long.endsWith(".pdf")]).toEqual([255, true]);
  });

  it("shows a learner only their own records, and lets them change nothing of another's", async () => {
    const { enrolmentId } = await enrolled();
    const applicationId = await offer("6,00,000", daysFromToday(-45));
    expect((await mine(other)).applications).toEqual([]);
    expect((await mine(other)).enrolments).toEqual([]);

    const refused: Record<string, string>[] = [
      { intent: "move-application", applicationId, stage: "left" },
      { intent: "set-seeking", enrolmentId, seeking: "no" },
      { intent: "accept-agreement", enrolmentId },
    ];
    for (const fields of refused) expect((await h.act(other, "/placement", fields)).status, fields.intent).toBe(404);
    // Learners verify nothing, enrol nobody, record no payment: those are staff intents.
    for (const fields of [
      { intent: "verify-offer", applicationId } as Record<string, string>,
      { intent: "enrol", learnerId: other.id, batchId: "x", seeking: "yes" },
    ]) {
      expect((await h.act(learner, "/placement", fields)).status, `${fields.intent} on the learner's page`).toBe(400);
      expect((await h.act(learner, "/staff/placement", fields)).status, `${fields.intent} as a learner`).toBe(403);
    }
    expect((await h.load(learner, "/staff/placement")).status).toBe(403);
    expect((await h.load(learner, `/staff/placement/${learner.id}`)).status).toBe(403);
    // An id with a NUL in it (PostgreSQL refuses NUL outright) is no learner, not a failure.
    expect((await h.load(staff, `/staff/placement/${learner.id}%00`)).status).toBe(404);
    expect((await h.load(null, "/placement")).status).toBe(302);

    // The offer letter: its owner and staff download it; another learner is told it isn't there.
    const path = `/api/placement/offers/${applicationId}/file`;
    expect((await h.call(learner, "GET", path)).status).toBe(200);
    expect((await h.call(other, "GET", path)).status).toBe(404);
    expect((await h.call(null, "GET", path)).status).toBe(401);
    const forStaff = await h.call(staff, "GET", path);
    expect(forStaff.status).toBe(200);
    expect(await forStaff.text()).toContain("%PDF-");
    // Untouched by the refusals.
    const untouched = await mine();
    expect(untouched.applications[0]!.stage).toBe("accepted");
    expect(untouched.enrolments[0]!.seeking).toBe(true);
  });

  it("freezes 'seeking a job' at graduation, keeping every change with who and when; staff define no terms", async () => {
    const { enrolmentId } = await enrolled();
    await ok(learner, "/placement", { intent: "set-seeking", enrolmentId, seeking: "no" });
    await ok(staff, "/staff/placement", { intent: "set-seeking", enrolmentId, seeking: "yes" });
    await ok(staff, "/staff/placement", { intent: "set-graduation", enrolmentId, graduation: "graduated" });
    expect(await h.act(learner, "/placement", { intent: "set-seeking", enrolmentId, seeking: "no" })).toMatchObject({
      status: 409,
    });
    const [enrolment] = (await mine()).enrolments;
    expect(enrolment).toMatchObject({ graduation: "graduated", seeking: true, seekingAtGraduation: true });
    expect(enrolment!.history.map((c) => [c.field, c.value, c.by])).toEqual([
      ["seeking", "yes", "Sita"],
      ["seeking", "no", "Leena"],
      ["seeking", "yes", "Sita"],
      ["graduation", "graduated", "Sita"],
    ]);
    const staffTerms = await h.act(staff, "/staff/batches", {
      intent: "define-terms",
      name: "x",
      threshold: "1",
      feeKind: "fixed",
      feeAmount: "1",
      instalments: "1",
      windowMonths: "1",
      gst: "18",
      pauseRule: "x",
    });
    expect(staffTerms).toMatchObject({ status: 403, data: { message: "Only admins can define fee terms." } });
  });

  it("puts the agreement waiting and the consent given on the learner's own dashboard, and takes them off once done", async () => {
    const dashboard = async (who: Learner) => (await h.load<Dashboard>(who, "/dashboard")).data.placement;
    expect(await dashboard(learner)).toEqual({ awaiting: [], consent: null });
    const { enrolmentId } = await enrolled({}, 60, false);
    const waiting = await dashboard(learner);
    expect(waiting.awaiting).toEqual([
      { enrolmentId, batchName: "Web Dev – Jan 2027", text: (await mine()).enrolments[0]!.agreement!.text },
    ]);
    expect(waiting.awaiting[0]!.text).toContain("you pay a fee of 12.5 % of the offer's fixed CTC a year");
    // Another learner sees nothing of it, and cannot accept it.
    expect(await dashboard(other)).toEqual({ awaiting: [], consent: null });
    expect((await h.act(other, "/placement", { intent: "accept-agreement", enrolmentId })).status).toBe(404);

    await ok(learner, "/placement", { intent: "accept-agreement", enrolmentId });
    expect((await dashboard(learner)).awaiting).toEqual([]);
    expect((await mine()).enrolments[0]!.agreement!.acceptedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    await ok(learner, "/placement", { intent: "give-consent" });
    expect((await dashboard(learner)).consent?.givenAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await dashboard(other)).consent).toBeNull();
    await ok(learner, "/placement", { intent: "withdraw-consent" });
    expect((await dashboard(learner)).consent).toBeNull();
  });

  it("lets staff add referrals and move the learner's applications, audited, each move kept with who made it", async () => {
    await ok(staff, "/staff/placement", {
      intent: "add-referral",
      learnerId: learner.id,
      company: "Persistent",
      role: "Junior Developer",
    });
    const [referral] = (await mine()).applications;
    expect(referral).toMatchObject({ company: "Persistent", source: "referral", stage: "applied", addedBy: "Sita" });
    await ok(staff, "/staff/placement", {
      intent: "move-application",
      applicationId: referral!.id,
      stage: "interview",
    });
    await ok(learner, "/placement", { intent: "move-application", applicationId: referral!.id, stage: "interview" });
    const moved = (await mine()).applications[0]!;
    expect([moved.stage, moved.interviewRound]).toEqual(["interview", 2]);
    expect(moved.history.map((step) => [step.stage, step.round, step.by])).toEqual([
      ["applied", 0, "Sita"],
      ["interview", 1, "Sita"],
      ["interview", 2, "Leena"],
    ]);
    // Accepted needs the offer on paper first.
    expect(
      await h.act(staff, "/staff/placement", {
        intent: "move-application",
        applicationId: referral!.id,
        stage: "accepted",
      }),
    ).toMatchObject({ status: 409 });
    // A learner adds no referral, for themselves or anyone.
    const asLearner = await h.act(learner, "/staff/placement", {
      intent: "add-referral",
      learnerId: learner.id,
      company: "X",
      role: "Y",
    });
    expect(asLearner.status).toBe(403);
    const actions = (await handle.db.selectFrom("staff_audit").select("action").orderBy("createdAt").execute()).map(
      (r) => r.action,
    );
    expect(actions).toEqual(["add-referral", "move-application"]);
  });

  it("counts the board's columns by stage, filtered by batch and by course", async () => {
    const { batchId } = await enrolled();
    await offer("6,00,000", daysFromToday(-45));
    await ok(other, "/placement", { intent: "add-application", company: "Beta", role: "Tester", source: "own" });
    const all = (await h.load<Board>(staff, "/staff/placement")).data.columns;
    expect(Object.fromEntries(all.map((c) => [c.stage, c.count]))).toMatchObject({ applied: 1, accepted: 1 });
    const inBatch = (await h.load<Board>(staff, `/staff/placement?batch=${batchId}`)).data.columns;
    expect(Object.fromEntries(inBatch.map((c) => [c.stage, c.count]))).toMatchObject({ applied: 0, accepted: 1 });
    expect(inBatch.find((c) => c.stage === "accepted")!.cards.map((c) => c.learner)).toEqual(["Leena"]);
    const inCourse = (await h.load<Board>(staff, "/staff/placement?course=Web%20Development")).data.columns;
    expect(Object.fromEntries(inCourse.map((c) => [c.stage, c.count]))).toMatchObject({ applied: 0, accepted: 1 });
    const otherCourse = (await h.load<Board>(staff, "/staff/placement?course=Java")).data.columns;
    expect(otherCourse.every((c) => c.count === 0)).toBe(true);
  });
});
