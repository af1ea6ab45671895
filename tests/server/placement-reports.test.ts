import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Db } from "~/db/database.server";
import { loadPublicOutcomes, loadStaffFees, loadStaffOutcomes } from "~/placement/outcomes-page.server";
import { feeRecords, receivables } from "~/placement/receivables.server";
import { exportFeesResponse } from "~/placement/fees-export-page.server";
import { outcomeReport } from "~/placement/reports.server";
import { placementHeadline, publicOutcomes } from "~/placement/public-outcomes.server";
import { landingRecords } from "~/site/landing/landing-page.server";
import { formatDocumentDate } from "~/documents/words";
import type { ApplicationStage } from "~/placement/stages";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";
import { insertBatch, insertEnrolment, insertOffer } from "../support/placement-fixtures";
import { appUrl, createHarness, outcome, type Harness } from "../support/test-app";
import { todayIn } from "~/core/dates";
import { staffTopic } from "~/realtime/events";

/*
 * The outcome report and the receivables against hand-computed fixtures, written straight into
 * the tables so that every date is chosen; "today" is fixed.
 */

const today = "2026-11-23";
const lakh = 100_000 * 100; // ₹1,00,000 in paise

describeEachDatabase("placement reports", (database) => {
  let handle: TestDatabaseHandle;
  let db: Db;

  beforeEach(async () => {
    handle = await database.open();
    db = handle.db;
    await db
      .insertInto("fee_terms")
      .values({
        id: "terms",
        name: "Standard",
        ctcThresholdPaise: 3 * lakh,
        feeKind: "fixed",
        feeAmountPaise: lakh,
        feeBasisPoints: null,
        capPaise: null,
        instalments: 3,
        placementWindowMonths: 12,
        gstBasisPoints: 1800,
        pauseRule: "Paused while unemployed.",
        createdBy: "Admin",
        createdAt: new Date().toISOString(),
      })
      .execute();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  const batch = (name: string, course: string, endDate: string, payment: "pap" | "upfront" = "pap") =>
    insertBatch(db, {
      name,
      course,
      startDate: "2025-08-01",
      endDate,
      payment,
      termsId: payment === "pap" ? "terms" : null,
    });

  /** A learner enrolled in a batch; returns their user and enrolment ids. */
  async function learner(
    batchId: string,
    name: string,
    graduation: "graduated" | "dropped-out" | "in-progress",
    seeking: boolean,
  ) {
    const learnerId = await insertUser(db, { name, email: `${name.toLowerCase()}-${randomUUID()}@example.com` });
    const enrolmentId = await insertEnrolment(db, { batchId, learnerId, graduation, seeking });
    return { learnerId, enrolmentId };
  }

  const offer = (
    learnerId: string,
    o: {
      company?: string;
      stage: ApplicationStage;
      status: "pending" | "verified" | "rejected";
      offerDate: string;
      joiningDate: string;
      ctc: number;
    },
  ) => insertOffer(db, learnerId, { ...o, ctcPaise: o.ctc });

  async function agreement(enrolmentId: string) {
    await db
      .insertInto("agreement")
      .values({
        enrolmentId,
        termsId: "terms",
        terms: "{}",
        termsText: "Terms",
        acceptedAt: new Date().toISOString(),
        decision: "owed",
        decisionText: null,
        offerId: null,
        createdAt: new Date().toISOString(),
      })
      .execute();
  }

  async function instalment(
    enrolmentId: string,
    number: number,
    dueDate: string,
    totalPaise: number,
    extra: { paid?: number; waived?: boolean } = {},
  ) {
    const id = randomUUID();
    await db
      .insertInto("instalment")
      .values({
        id,
        enrolmentId,
        number,
        dueDate,
        feePaise: totalPaise,
        gstPaise: 0,
        totalPaise,
        waivedAt: extra.waived ? "2026-10-01T00:00:00.000Z" : null,
        waivedByName: extra.waived ? "Admin" : null,
        waiverReason: extra.waived ? "Hardship" : null,
      })
      .execute();
    if (extra.paid) {
      await db
        .insertInto("payment")
        .values({
          id: randomUUID(),
          instalmentId: id,
          amountPaise: extra.paid,
          paidOn: dueDate,
          reference: "UTR1",
          recordedByName: "Staff",
          recordedAt: new Date().toISOString(),
        })
        .execute();
    }
    return id;
  }

  async function consent(learnerId: string) {
    await db
      .insertInto("public_consent")
      .values({ learnerId, consentText: "You may name me.", givenAt: new Date().toISOString() })
      .execute();
  }

  /** Batch A (Python, ended 2026-01-31) and B (Python, ended 2026-06-30), as worked out below. */
  async function pythonBatches() {
    const a = await batch("Python – Jan 2026", "Python", "2026-01-31");
    // Placed: offer 10 days after the end, joined within 180 days. A later offer is not theirs.
    const l1 = await learner(a, "Asha", "graduated", true);
    await offer(l1.learnerId, {
      company: "Infosys",
      stage: "accepted",
      status: "verified",
      offerDate: "2026-02-10",
      joiningDate: "2026-03-01",
      ctc: 6 * lakh,
    });
    await offer(l1.learnerId, {
      stage: "joined",
      status: "verified",
      offerDate: "2026-08-01",
      joiningDate: "2026-09-01",
      ctc: 99 * lakh,
    });
    // Placed: an offer before graduation counts as 0 days.
    const l2 = await learner(a, "Bhavesh", "graduated", true);
    await offer(l2.learnerId, {
      stage: "joined",
      status: "verified",
      offerDate: "2026-01-20",
      joiningDate: "2026-02-15",
      ctc: 4 * lakh,
    });
    // Not placed: joins on day 181.
    const l3 = await learner(a, "Chitra", "graduated", true);
    await offer(l3.learnerId, {
      stage: "accepted",
      status: "verified",
      offerDate: "2026-06-01",
      joiningDate: "2026-07-31",
      ctc: 7 * lakh,
    });
    // Not placed: the offer is not verified.
    const l4 = await learner(a, "Dev", "graduated", true);
    await offer(l4.learnerId, {
      stage: "accepted",
      status: "pending",
      offerDate: "2026-02-01",
      joiningDate: "2026-03-01",
      ctc: 5 * lakh,
    });
    // Placed on day 180 exactly (offer 90 days after the end); a verified offer not accepted is not theirs.
    const l5 = await learner(a, "Esha", "graduated", true);
    await offer(l5.learnerId, {
      stage: "declined",
      status: "verified",
      offerDate: "2026-02-01",
      joiningDate: "2026-02-20",
      ctc: 20 * lakh,
    });
    await offer(l5.learnerId, {
      stage: "left",
      status: "verified",
      offerDate: "2026-05-01",
      joiningDate: "2026-07-30",
      ctc: 8 * lakh,
    });
    // Not seeking at graduation: not in the rate, whatever the offer.
    const l6 = await learner(a, "Farhan", "graduated", false);
    await offer(l6.learnerId, {
      stage: "accepted",
      status: "verified",
      offerDate: "2026-02-01",
      joiningDate: "2026-03-01",
      ctc: 9 * lakh,
    });
    await learner(a, "Gita", "dropped-out", true);
    await learner(a, "Hari", "in-progress", true);
    // Fees of A: 1,000 + 300 collected; due by today: 1,000 + 1,000 (the waived and the future one are not).
    await agreement(l1.enrolmentId);
    await instalment(l1.enrolmentId, 1, "2026-04-01", 100_000, { paid: 100_000 });
    await instalment(l1.enrolmentId, 2, "2026-05-01", 100_000, { paid: 30_000 });
    await instalment(l1.enrolmentId, 3, "2026-06-01", 100_000, { waived: true });
    await instalment(l1.enrolmentId, 4, "2027-01-01", 100_000);

    const b = await batch("Python – Jun 2026", "Python", "2026-06-30", "upfront");
    const l9 = await learner(b, "Ishaan", "graduated", true);
    await offer(l9.learnerId, {
      stage: "accepted",
      status: "verified",
      offerDate: "2026-07-05",
      joiningDate: "2026-07-10",
      ctc: 5 * lakh,
    });
    await learner(b, "Jaya", "graduated", true);
    return { a, b, l1, l2, l3, l5, l6 };
  }

  it("counts a batch and a course as worked out by hand", async () => {
    const { a, b } = await pythonBatches();
    const report = await outcomeReport(db, today);

    const rowA = report.batches.find((x) => x.id === a)!.row;
    expect(rowA).toEqual({
      enrolled: 8,
      graduated: 6,
      seeking: 5,
      placedWithin180Days: 3,
      placementRate: { numerator: 3, denominator: 5, percent: 60 },
      medianCtcPaise: 6 * lakh,
      highestCtcPaise: 8 * lakh,
      medianDaysToOffer: 10,
      feesCollectedPaise: 130_000,
      feesDuePaise: 200_000,
    });
    const rowB = report.batches.find((x) => x.id === b)!.row;
    expect(rowB.placementRate).toEqual({ numerator: 1, denominator: 2, percent: 50 });
    expect(rowB.medianDaysToOffer).toBe(5);

    // The course: the union of both batches' learners, medians never averaged.
    expect(report.courses).toEqual([
      {
        course: "Python",
        batches: 2,
        row: {
          enrolled: 10,
          graduated: 8,
          seeking: 7,
          placedWithin180Days: 4,
          placementRate: { numerator: 4, denominator: 7, percent: 57.1 },
          medianCtcPaise: (5 * lakh + 6 * lakh) / 2,
          highestCtcPaise: 8 * lakh,
          medianDaysToOffer: 7, // 0, 5, 10, 90: (5 + 10) / 2 rounded down
          feesCollectedPaise: 130_000,
          feesDuePaise: 200_000,
        },
      },
    ]);
    expect(report.all).toEqual(report.courses[0]!.row);
  });

  it("shows a batch with nobody seeking as no rate, not 0 %", async () => {
    const c = await batch("Java – Mar 2026", "Java", "2026-03-31", "upfront");
    await learner(c, "Kiran", "graduated", false);
    const row = (await outcomeReport(db, today)).batches[0]!.row;
    expect(row.placementRate).toEqual({ numerator: 0, denominator: 0, percent: null });
    expect([row.medianCtcPaise, row.highestCtcPaise, row.medianDaysToOffer]).toEqual([null, null, null]);
  });

  it("publishes only batches that ended 180 days ago or more, and names only those who consented", async () => {
    const { l1, l2, l3, l6 } = await pythonBatches();
    // 2026-05-27 is 180 days before today: published. 2026-05-28 is 179: not yet.
    const d = await batch("Java – May 2026 A", "Java", "2026-05-27", "upfront");
    const c = await batch("Java – May 2026 B", "Java", "2026-05-28", "upfront");
    const inD = await learner(d, "Lata", "graduated", true);
    await offer(inD.learnerId, {
      company: "TCS",
      stage: "joined",
      status: "verified",
      offerDate: "2026-06-01",
      joiningDate: "2026-06-15",
      ctc: 4 * lakh,
    });
    const inC = await learner(c, "Manoj", "graduated", true);
    await offer(inC.learnerId, {
      stage: "joined",
      status: "verified",
      offerDate: "2026-06-01",
      joiningDate: "2026-06-15",
      ctc: 4 * lakh,
    });
    for (const who of [l1, l3, l6, inD, inC]) await consent(who.learnerId);

    const published = await publicOutcomes(db, today);
    // A (ended in January) and D; not B (June) nor C (179 days).
    expect(published.batches.map((x) => x.name).sort()).toEqual(["Java – May 2026 A", "Python – Jan 2026"]);
    expect(published.courses.map((x) => [x.course, x.batches, x.row.enrolled])).toEqual([
      ["Java", 1, 1],
      ["Python", 1, 8],
    ]);
    // Consented and placed within 180 days: Asha (her first offer's company) and Lata. Not
    // Bhavesh (no consent), Chitra (day 181), Farhan (not seeking), Manoj (batch not published).
    expect(published.placedByName).toEqual([
      { name: "lata", company: "TCS", batch: "Java – May 2026 A" },
      { name: "asha", company: "Infosys", batch: "Python – Jan 2026" },
    ]);
    expect(l2).toBeDefined();

    // Withdrawing consent takes the name off.
    await db.deleteFrom("public_consent").where("learnerId", "=", l1.learnerId).execute();
    expect((await publicOutcomes(db, today)).placedByName.map((p) => p.name)).toEqual(["lata"]);
  });

  it("gives the landing page one figure, from the published batches only, and none before records back it", async () => {
    expect(await placementHeadline(db, today)).toBeNull();
    // Published, but nobody was seeking a job: still no figure (never "0 of 0").
    const java = await batch("Java – Mar 2026", "Java", "2026-03-31", "upfront");
    await learner(java, "Kiran", "graduated", false);
    expect(await placementHeadline(db, today)).toBeNull();

    await pythonBatches();
    const may = await batch("Java – May 2026 A", "Java", "2026-05-27", "upfront");
    const lata = await learner(may, "Lata", "graduated", true);
    await offer(lata.learnerId, {
      stage: "joined",
      status: "verified",
      offerDate: "2026-06-01",
      joiningDate: "2026-06-15",
      ctc: 4 * lakh,
    });
    // 179 days ago: not published, so its placed learner is not counted.
    const late = await batch("Java – May 2026 B", "Java", "2026-05-28", "upfront");
    const manoj = await learner(late, "Manoj", "graduated", true);
    await offer(manoj.learnerId, {
      stage: "joined",
      status: "verified",
      offerDate: "2026-06-01",
      joiningDate: "2026-06-15",
      ctc: 4 * lakh,
    });

    // Python – Jan 2026: 3 of 5; Java – May 2026 A: 1 of 1; Java – Mar 2026: 0 of 0. Together 4 of 6.
    const headline = await placementHeadline(db, today);
    expect(headline).toEqual({ percent: 66.7, placed: 4, seeking: 6, endedBy: "2026-05-27" });
    // The same count as the public page's, whose batches it reads.
    expect((await publicOutcomes(db, today)).all.placementRate).toEqual({
      numerator: headline!.placed,
      denominator: headline!.seeking,
      percent: headline!.percent,
    });
  });

  it("ages overdue instalments in buckets and counts what falls due this month", async () => {
    const r = await batch("Web – Jan 2026", "Web Development", "2026-01-31");
    const one = await learner(r, "Nina", "graduated", true);
    await agreement(one.enrolmentId);
    let n = 1;
    const due = (date: string, total: number, extra?: { paid?: number; waived?: boolean }) =>
      instalment(one.enrolmentId, n++, date, total, extra);
    await due("2026-11-22", 1_000); // 1 day past due (and this month)
    await due("2026-10-24", 2_000, { paid: 500 }); // 30 days: 1,500 unpaid
    await due("2026-10-23", 3_000); // 31 days
    await due("2026-08-25", 4_000); // 90 days
    await due("2026-08-24", 5_000); // 91 days
    await due("2026-11-30", 6_000); // later this month: due, not overdue
    await due("2026-11-01", 7_000); // this month and overdue (22 days)
    await due("2026-09-01", 8_000, { waived: true });
    await due("2026-09-01", 9_000, { paid: 9_000 });
    await due("2026-12-05", 10_000); // next month: not yet
    // Another learner's instalments under a pause that is still running.
    const two = await learner(r, "Om", "graduated", true);
    await agreement(two.enrolmentId);
    await instalment(two.enrolmentId, 1, "2026-11-10", 11_000);
    await instalment(two.enrolmentId, 2, "2026-06-10", 12_000); // covered by the pause too
    await db
      .insertInto("fee_pause")
      .values({
        id: randomUUID(),
        enrolmentId: two.enrolmentId,
        reason: "Lost job",
        until: "2026-12-31",
        createdByName: "Staff",
        createdAt: new Date().toISOString(),
      })
      .execute();
    // An old pause that has ended changes nothing.
    await db
      .insertInto("fee_pause")
      .values({
        id: randomUUID(),
        enrolmentId: one.enrolmentId,
        reason: "Old",
        until: "2026-10-01",
        createdByName: "Staff",
        createdAt: new Date().toISOString(),
      })
      .execute();

    const result = await receivables(db, today);
    const expected = {
      open: 9,
      dueThisMonth: { count: 3, paise: 1_000 + 6_000 + 7_000 },
      overdue: {
        days0to30: { count: 3, paise: 1_000 + 1_500 + 7_000 },
        days31to60: { count: 1, paise: 3_000 },
        days61to90: { count: 1, paise: 4_000 },
        days90plus: { count: 1, paise: 5_000 },
        total: { count: 6, paise: 21_500 },
      },
      paused: { count: 2, paise: 23_000 },
    };
    expect(result.all).toEqual(expected);
    expect(result.batches).toEqual([
      { id: r, name: "Web – Jan 2026", course: "Web Development", termsSource: "own", ...expected },
    ]);

    const rows = [];
    for await (const row of feeRecords(db, today, 4)) rows.push(row);
    // Every open instalment, by due date, across keyset batches of 4.
    expect(rows.map((row) => [row.dueDate, row.unpaid, row.state, row.ageing])).toEqual([
      ["2026-06-10", "120.00", "paused", ""],
      ["2026-08-24", "50.00", "overdue", "Over 90 days"],
      ["2026-08-25", "40.00", "overdue", "61–90 days"],
      ["2026-10-23", "30.00", "overdue", "31–60 days"],
      ["2026-10-24", "15.00", "overdue", "0–30 days"],
      ["2026-11-01", "70.00", "overdue", "0–30 days"],
      ["2026-11-10", "110.00", "paused", ""],
      ["2026-11-22", "10.00", "overdue", "0–30 days"],
      ["2026-11-30", "60.00", "due", ""],
    ]);
  });
});

describeEachDatabase("placement report pages: who may see them", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const request = (path: string, cookie?: string) =>
    new Request(`${appUrl}${path}`, { headers: cookie ? { cookie } : {} });

  it("refuses learners and sends visitors to sign in; staff and admins see the report, the receivables and the CSV", async () => {
    const learner = await h.signUp("Leena");
    const staff = await h.signUp("Suresh");
    const admin = await h.signUp("Anita");
    await h.setRole(staff, "mentor");
    await h.setRole(admin, "admin");

    for (const load of [loadStaffOutcomes, loadStaffFees]) {
      expect((await outcome(() => load(request("/staff/outcomes", learner.cookie)))).status).toBe(403);
      const anonymous = await outcome(() => load(request("/staff/outcomes")));
      expect(anonymous.status).toBe(302);
      expect(anonymous.location).toContain("auth=login");
      expect((await outcome(() => load(request("/staff/outcomes", staff.cookie)))).status).toBe(200);
      expect((await outcome(() => load(request("/staff/outcomes", admin.cookie)))).status).toBe(200);
    }
    expect((await exportFeesResponse(request("/staff/fees.csv", learner.cookie))).status).toBe(403);
    expect((await exportFeesResponse(request("/staff/fees.csv"))).status).toBe(401);

    const csv = await exportFeesResponse(request("/staff/fees.csv", staff.cookie));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(
      /^attachment; filename="receivables-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = Buffer.from(await csv.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // the BOM
    expect(bytes.toString("utf8", 3)).toMatch(/^learner,email,batch,course,instalment,due date,/);
    const entries = await handle.db.selectFrom("staff_audit").select(["action", "actorName"]).execute();
    expect(entries).toEqual([{ action: "export-fees", actorName: "Suresh" }]);

    // The public page's data needs nobody signed in.
    expect((await loadPublicOutcomes()).batches).toEqual([]);
  });

  it("puts the placement figure on the landing page once a published batch backs it, with the same count as /outcomes", async () => {
    expect((await landingRecords()).placement).toBeNull();

    const db = handle.db;
    const now = todayIn(h.config.instituteTimeZone);
    const daysAgo = (days: number) =>
      new Date(Date.parse(`${now}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    const batchId = await insertBatch(db, {
      name: "Web Development – Old",
      course: "Web Development",
      startDate: daysAgo(400),
      endDate: daysAgo(200),
      payment: "upfront",
      termsId: null,
    });
    for (const [name, placed] of [
      ["Asha", true],
      ["Bela", true],
      ["Chetan", false],
    ] as const) {
      const learnerId = await insertUser(db, { name, email: `${name.toLowerCase()}@example.com` });
      await insertEnrolment(db, { batchId, learnerId, graduation: "graduated", seeking: true });
      if (!placed) continue;
      await insertOffer(db, learnerId, {
        stage: "joined",
        status: "verified",
        offerDate: daysAgo(190),
        joiningDate: daysAgo(180),
        ctcPaise: 5 * lakh,
      });
    }
    // Written past the app's own changes: told as a placement change tells every instance (the
    // landing figure and /outcomes keep their aggregates until then).
    await h.services.bus.publish(staffTopic, { type: "placement" });
    await new Promise((resolve) => setTimeout(resolve, 150));

    expect((await landingRecords()).placement).toEqual({
      figure: "66.7%",
      detail: `of job-seeking graduates placed within 180 days (2 of 3), in batches that ended by ${formatDocumentDate(daysAgo(200))}`,
    });
    expect((await loadPublicOutcomes()).all.placementRate).toEqual({ numerator: 2, denominator: 3, percent: 66.7 });
  });
});
