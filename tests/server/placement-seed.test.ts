import { afterEach, beforeEach, expect, it } from "vitest";
import { seedPlacement } from "~/placement/seed.server";
import { outcomeReport } from "~/placement/reports.server";
import { publicOutcomes } from "~/placement/public-outcomes.server";
import { seedLearners } from "~/staff/seed.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

// npm run seed's placement records: realistic shares, batches named as staff name them, records
// the reports can read, and a second run on the same database that collides with nothing.

describeEachDatabase("placement seed", (database) => {
  let handle: TestDatabaseHandle;

  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  it("enrols a share of the learners with offers, schedules and payments, and names batches plainly", async () => {
    const db = handle.db;
    await seedLearners(db, { learners: 1000, seed: 7 });
    const now = new Date("2026-11-23T06:00:00Z");
    const first = await seedPlacement(db, { seed: 7, now });
    expect(first.batches).toBe(40);
    // About 30 % of the learners enrolled; some of them placed and paying.
    expect(first.enrolments).toBeGreaterThan(200);
    expect(first.enrolments).toBeLessThan(400);
    expect(first.offers).toBeGreaterThan(0);
    expect(first.instalments).toBeGreaterThan(0);
    expect(first.payments).toBeGreaterThan(0);

    const names = (await db.selectFrom("batch").select("name").execute()).map((row) => row.name);
    expect(names.filter((name) => !/^.+ – [A-Z][a-z]{2} \d{4}$/.test(name))).toEqual([]);

    // Every schedule belongs to an accepted PAP agreement whose offer was verified.
    const orphans = await db
      .selectFrom("instalment")
      .leftJoin("agreement", "agreement.enrolmentId", "instalment.enrolmentId")
      .leftJoin("job_offer", "job_offer.applicationId", "agreement.offerId")
      .select("instalment.id")
      .where((eb) =>
        eb.or([
          eb("agreement.acceptedAt", "is", null),
          eb("agreement.decision", "!=", "owed"),
          eb("job_offer.status", "is", null),
          eb("job_offer.status", "!=", "verified"),
        ]),
      )
      .execute();
    expect(orphans).toEqual([]);

    const report = await outcomeReport(db, "2026-11-23");
    expect(report.all.enrolled).toBe(first.enrolments);
    expect(report.all.placedWithin180Days).toBeGreaterThan(0);
    expect(report.all.feesCollectedPaise).toBeGreaterThan(0);
    expect((await publicOutcomes(db, "2026-11-23")).batches.length).toBeGreaterThan(0);

    // Seeding again adds batches of its own; names already taken get the run's tag.
    const second = await seedPlacement(db, { seed: 8, now });
    const all = (await db.selectFrom("batch").select("name").execute()).map((row) => row.name);
    expect(all).toHaveLength(first.batches + second.batches);
    expect(new Set(all).size).toBe(all.length);
  });
});
