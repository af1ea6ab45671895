import { afterEach, beforeEach, expect, it } from "vitest";
import { verifyPassword } from "better-auth/crypto";
import { demoAdminEmail, seedDemo } from "~/staff/demo-seed.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

// npm run seed -- --demo: a small institute with an admin who can sign in, trainers on the
// batches, placements and consented testimonials; a second run adds learners and a new password.

describeEachDatabase("demo seed", (database) => {
  let handle: TestDatabaseHandle;

  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  it("makes an admin with the printed password, trainers on every batch, placements and testimonials", async () => {
    const db = handle.db;
    const now = new Date("2026-11-26T06:00:00Z");
    const first = await seedDemo(db, { now });
    expect(first.learners).toBe(300);
    expect(first.placement.batches).toBe(5);
    expect(first.placement.enrolments).toBeGreaterThan(150);
    expect(first.placement.offers).toBeGreaterThan(0);
    expect(first.testimonials).toBe(4);

    const admin = await db
      .selectFrom("user")
      .innerJoin("account", "account.userId", "user.id")
      .select(["user.role", "account.password"])
      .where("user.email", "=", demoAdminEmail)
      .executeTakeFirstOrThrow();
    expect(admin.role).toBe("admin");
    expect(await verifyPassword({ hash: admin.password!, password: first.adminPassword })).toBe(true);

    const untaught = await db
      .selectFrom("batch")
      .leftJoin("batch_trainer", "batch_trainer.batchId", "batch.id")
      .select("batch.id")
      .where("batch_trainer.staffId", "is", null)
      .execute();
    expect(untaught).toEqual([]);
    const shown = await db.selectFrom("testimonial").select("id").where("consentAt", "is not", null).execute();
    expect(shown).toHaveLength(4);

    const second = await seedDemo(db, { now });
    expect(second.testimonials).toBe(0);
    expect(second.adminPassword).not.toBe(first.adminPassword);
    const password = await db
      .selectFrom("account")
      .innerJoin("user", "user.id", "account.userId")
      .select("account.password")
      .where("user.email", "=", demoAdminEmail)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword({ hash: password.password!, password: second.adminPassword })).toBe(true);
    const learners = await db
      .selectFrom("user")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("role", "is", null)
      .executeTakeFirstOrThrow();
    expect(Number(learners.n)).toBe(600);
  });
});
