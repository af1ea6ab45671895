import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { migrations } from "~/db/migrations";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";

// Migration 0026 makes the placement batches the batches learners are taught in: every batch,
// enrolment, agreement and fee term stays as it was, and each batch's free-text course is linked
// to the catalogue course of the same title, or to a hidden course added with that title.

describeEachDatabase("migration 0026_learning_loop over a site with placement batches", (database) => {
  let handle: TestDatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it("links each batch to a catalogue course and keeps every enrolment", async () => {
    handle = await database.open({ migrate: false });
    const db = handle.db;
    await migrateToLatest(db, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0026")));
    const learnerId = await insertUser(db, { name: "Asha", email: "asha@example.com" });
    const at = "2026-01-01T00:00:00.000Z";
    const batch = (id: string, name: string, course: string) =>
      sql`insert into batch (id, name, course, "startDate", "endDate", payment, "termsId", "createdAt")
        values (${id}, ${name}, ${course}, ${"2026-01-01"}, ${"2026-06-30"}, ${"upfront"}, ${null}, ${at})`.execute(db);
    await batch("b1", "Web – Jan", "web  development");
    await batch("b2", "Cloud – Jan", "Cloud Computing");
    await batch("b3", "Cloud – Feb", "cloud computing");
    await sql`insert into enrolment (id, "batchId", "learnerId", seeking, graduation, "seekingAtGraduation", "createdAt")
      values (${"e1"}, ${"b2"}, ${learnerId}, ${1}, ${"graduated"}, ${1}, ${at})`.execute(db);

    const result = await migrateToLatest(
      db,
      Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= "0026_learning_loop")),
    );
    expect(result.error).toBeUndefined();
    const batches = await db
      .selectFrom("batch")
      .select(["id", "course", "courseSlug", "schedule"])
      .orderBy("id")
      .execute();
    expect(batches).toEqual([
      { id: "b1", course: "web  development", courseSlug: "web-development", schedule: "" },
      { id: "b2", course: "Cloud Computing", courseSlug: "cloud-computing", schedule: "" },
      { id: "b3", course: "cloud computing", courseSlug: "cloud-computing", schedule: "" },
    ]);
    const added = await db
      .selectFrom("course")
      .select(["title", "shown"])
      .where("slug", "=", "cloud-computing")
      .executeTakeFirstOrThrow();
    expect([added.title, Number(added.shown)]).toEqual(["Cloud Computing", 0]);
    expect(await db.selectFrom("enrolment").selectAll().execute()).toEqual([
      {
        id: "e1",
        batchId: "b2",
        learnerId,
        seeking: 1,
        graduation: "graduated",
        seekingAtGraduation: 1,
        createdAt: at,
      },
    ]);
  });
});
