import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadStaffOutcomes } from "~/placement/outcomes-page.server";
import { feeRecords, feesColumns, receivables } from "~/placement/receivables.server";
import { exportFeesResponse } from "~/placement/fees-export-page.server";
import { todayIn } from "~/core/dates";
import { outcomeReport } from "~/placement/reports.server";
import { publicOutcomes } from "~/placement/public-outcomes.server";
import { seedPlacement } from "~/placement/seed.server";
import { heavyReportMessages, heavyReportRetryAfterSeconds } from "~/core/heavy-reports.server";
import { csvStream } from "~/core/csv.server";
import { countExported, exportColumns, learnerRecords } from "~/staff/learner-export.server";
import { exportLearnersResponse } from "~/staff/learner-export-page.server";
import { countLearners } from "~/learners/learner-filter.server";
import { searchLearners } from "~/staff/search.server";
import { seedLearners } from "~/staff/seed.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

/** Larger than one read: a statement per chunk would show any row lost or counted twice at a boundary. */
const oneStatement = 1_000_000_000;

const bytesOf = async (stream: ReadableStream<Uint8Array>) => Buffer.from(await new Response(stream).arrayBuffer());

describeEachDatabase("heavy reports", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let staff: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    staff = await h.signUp("Suresh");
    await h.setRole(staff, "mentor");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const request = (path: string) => new Request(`${appUrl}${path}`, { headers: { cookie: staff.cookie } });

  it("runs two at once: a third waits, then gets 429 with Retry-After; a slot freed while it waits lets it run", async () => {
    // Enough learners that a download nobody reads stops on its buffers instead of ending.
    await seedLearners(handle.db, { learners: 4_000 });
    const first = await exportLearnersResponse(request("/staff/learners.csv"));
    const second = await exportFeesResponse(request("/staff/fees.csv"));
    expect([first.status, second.status]).toEqual([200, 200]);
    // The fees CSV is tiny here and ends on its own, giving its slot back; the learners' does not.
    await bytesOf(second.body!);
    const third = await exportLearnersResponse(request("/staff/learners.csv"));
    expect(third.status).toBe(200);

    // Two downloads run: a third report waits its while, then is refused.
    const started = performance.now();
    const refused = await exportLearnersResponse(request("/staff/learners.csv"));
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(heavyReportRetryAfterSeconds));
    expect(await refused.json()).toEqual({ message: heavyReportMessages.busy });
    // A page's report too, with the message and Retry-After.
    let thrown: unknown;
    try {
      await loadStaffOutcomes(request("/staff/outcomes"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      data: { message: heavyReportMessages.busy },
      init: { status: 429, headers: { "Retry-After": String(heavyReportRetryAfterSeconds) } },
    });

    // A download abandoned part way gives its slot back, to the report waiting for one.
    const waiting = outcome(() => loadStaffOutcomes(request("/staff/outcomes")));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await first.body!.cancel();
    expect((await waiting).status).toBe(200);
    await third.body!.cancel();
    const again = await exportFeesResponse(request("/staff/fees.csv"));
    expect(again.status).toBe(200);
    await bytesOf(again.body!);
  });

  it("gives, read in chunks, exactly what one statement over everything gives", async () => {
    const db = handle.db;
    await seedLearners(db, { learners: 300 });
    const now = new Date();
    // Old batches too, so that the public page has some to show.
    await seedPlacement(db, { batches: 8, share: 0.6, now });
    await seedPlacement(db, { batches: 4, share: 0.3, seed: 7, now: new Date(now.getTime() - 400 * 86_400_000) });
    const today = todayIn(h.config.instituteTimeZone, now);

    const report = await outcomeReport(db, today);
    const published = await publicOutcomes(db, today, oneStatement);
    expect(published.placedByName.length).toBeGreaterThan(0);
    expect(await publicOutcomes(db, today, 7)).toEqual(published);
    expect(await publicOutcomes(db, today, 1)).toEqual(published);

    // The counts and fees as the grouped statements over every batch at once count them.
    const counts = await db
      .selectFrom("enrolment")
      .select((eb) => [
        "batchId",
        eb.fn.countAll<number | string>().as("enrolled"),
        eb.fn.sum<number | string>(sql`case when "graduation" = 'graduated' then 1 else 0 end`).as("graduated"),
      ])
      .groupBy("batchId")
      .execute();
    const collected = await db
      .selectFrom("payment")
      .innerJoin("instalment", "instalment.id", "payment.instalmentId")
      .innerJoin("enrolment", "enrolment.id", "instalment.enrolmentId")
      .select((eb) => ["enrolment.batchId", eb.fn.sum<number | string>("payment.amountPaise").as("paid")])
      .groupBy("enrolment.batchId")
      .execute();
    expect(counts.length).toBe(12);
    expect(collected.length).toBeGreaterThan(0);
    for (const row of counts) {
      const batch = report.batches.find((b) => b.id === row.batchId)!;
      expect([batch.row.enrolled, batch.row.graduated]).toEqual([Number(row.enrolled), Number(row.graduated)]);
    }
    for (const row of collected) {
      expect(report.batches.find((b) => b.id === row.batchId)!.row.feesCollectedPaise).toBe(Number(row.paid));
    }

    const owed = await receivables(db, today, oneStatement);
    expect(owed.all.open).toBeGreaterThan(0);
    expect(await receivables(db, today, 3)).toEqual(owed);
    const feesCsv = await bytesOf(csvStream(feeRecords(db, today, oneStatement), feesColumns));
    expect(await bytesOf(csvStream(feeRecords(db, today, 3), feesColumns))).toEqual(feesCsv);
    expect(await bytesOf(csvStream(feeRecords(db, today, 1), feesColumns))).toEqual(feesCsv);

    const everyone = { search: "", course: "" };
    const learnersCsv = (batchSize: number) =>
      bytesOf(csvStream(learnerRecords(db, everyone, { timeZone: "Asia/Kolkata", now, batchSize }), exportColumns));
    const whole = await learnersCsv(oneStatement);
    expect(whole.toString("utf8").split("\r\n").length).toBeGreaterThan(300);
    expect(await learnersCsv(7)).toEqual(whole);
    expect(await learnersCsv(1)).toEqual(whole);
    // A search read a range of learners at a time finds and counts what the list finds, however
    // few of them fall in each range.
    const some = { search: "a", course: "" };
    const found = (await searchLearners(db, some, 1, { pageSize: 100 })).learners.map((l) => l.id);
    expect(found.length).toBeGreaterThan(0);
    const searched = (batchSize: number) =>
      bytesOf(csvStream(learnerRecords(db, some, { timeZone: "Asia/Kolkata", now, batchSize }), exportColumns));
    const matching = await searched(oneStatement);
    expect(await searched(7)).toEqual(matching);
    const ids = matching
      .toString("utf8")
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(",")[0]);
    expect(ids.slice(0, found.length)).toEqual(found);
    expect(await countExported(db, some, 7)).toBe(await countLearners(db, some));
    expect(await countExported(db, everyone, 7)).toBe(await countLearners(db, everyone));
  });
});
