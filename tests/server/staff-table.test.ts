import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Db } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { migrations } from "~/db/migrations";
import type { LearnerFilter } from "~/learners/learner-filter";
import { pageIdsQuery, searchLearners } from "~/staff/search.server";
import { sortKeys, type SortDirection, type SortKey } from "~/staff/workspace-query";
import { applicationStages } from "~/placement/stages";
import { countPassedDueDates } from "~/assignments/overdue-figure.server";
import type { AssignmentStatus } from "~/assignments/statuses";
import { enrolLearners } from "~/batches/membership.server";
import { createLogger } from "~/logging/logger.server";
import { clearMessages, markShownRead } from "~/messages/messages.server";
import { InProcessBus } from "~/realtime/bus.server";
import { sendToSelected } from "~/staff/staff-actions.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

// The staff table's filters and sorts give what the words say, on both databases, and the
// per-learner figures they read (resume, unread, first batch: migration 0038's columns; assignments
// overdue: 0047's) follow every write to the tables they come from, including writes straight into
// the database, and the overdue figure follows the clock as due dates pass.

const day = 86_400_000;
const now = Date.parse("2026-06-15T12:00:00Z");
const clock = { timeZone: "Asia/Kolkata", now };
const courses = ["Java", "Python", "SEO", "VFX"];
const batchNames = ["batch east", "batch north", "batch south"];

interface Row {
  id: string;
  username: string;
  email: string;
  phone: string;
  course: string;
  createdAt: string;
  lastActiveAt: string | null;
  resume: boolean;
  unread: number;
  /** Assignments past due still waiting for them (each also has one handed in and one not yet due). */
  overdue: number;
  batches: string[];
  stages: string[];
}

/** A fixed spread of learners: ties in every sorted column, some with nothing, some with all. */
function plannedRows(): Row[] {
  return Array.from({ length: 36 }, (_, i) => ({
    id: randomUUID(),
    // Three share each name and a joining time repeats, so the tie-breaks decide.
    username: `${["asha", "Bala", "chitra", "Deepa", "esha", "farah", "gita", "Hema", "ila", "jaya", "kala", "lata"][i % 12]} ${["rao", "iyer", "nair"][i % 3]}`,
    email: `person${i}@example.in`,
    phone: `98${String(7_654_000 + ((i * 7919) % 1000)).padStart(8, "0")}`,
    course: courses[i % 4]!,
    createdAt: new Date(now - Math.floor(i / 2) * 5 * day).toISOString(),
    lastActiveAt: i % 3 === 0 ? null : new Date(now - (i % 7) * 9 * day).toISOString(),
    resume: i % 4 === 1 || i % 5 === 0,
    unread: i % 6,
    overdue: Math.floor(i / 3) % 4,
    batches: [[], ["batch south"], ["batch north", "batch east"], []][i % 4]!,
    stages: i % 5 === 2 ? [applicationStages[i % applicationStages.length]!] : [],
  }));
}

describeEachDatabase("staff table filters, sorts and kept figures", (database) => {
  let handle: TestDatabaseHandle;
  let db: Db;
  let rows: Row[];
  const batchIds: Record<string, string> = {};
  let assignments: Assignments;

  beforeEach(async () => {
    handle = await database.open();
    db = handle.db;
    for (const name of batchNames) batchIds[name] = await insertBatch(db, name);
    assignments = await insertAssignments(db);
    rows = plannedRows();
    for (const row of rows) await insertRow(db, row, batchIds, assignments);
    if (handle.dialect === "postgres") await sql`analyze`.execute(db);
  });
  afterEach(async () => {
    await handle.dispose();
  });

  /**
   * The list for a filter and sort, as the workspace reads it (these few are read whole and then
   * sorted), checked against the read in the sort's order that a broad filter gets.
   */
  const search = async (filter: Partial<LearnerFilter>, sort?: { key: SortKey; dir: SortDirection }) => {
    const page = await searchLearners(db, { search: "", course: "", ...filter }, 1, {
      pageSize: 100,
      clock,
      ...(sort ? { sort } : {}),
    });
    const ids = page.learners.map((l) => l.id);
    const inOrder = await pageIdsQuery(db, { search: "", course: "", ...filter }, 0, {
      pageSize: 100,
      clock,
      ...(sort ? { sort } : {}),
    }).execute();
    expect(
      inOrder.map((row) => row.id),
      `${JSON.stringify(filter)} ${JSON.stringify(sort)}`,
    ).toEqual(ids);
    return ids;
  };
  /** The rows a filter keeps, newest first (the default order). */
  const expected = (keep: (row: Row) => boolean) => sortRows(rows.filter(keep), "joined", "desc").map((r) => r.id);

  it("orders by every column both ways, ties broken by joining time and id, as the table promises", async () => {
    for (const key of sortKeys) {
      for (const dir of ["asc", "desc"] as const) {
        expect(await search({}, { key, dir }), `${key} ${dir}`).toEqual(sortRows(rows, key, dir).map((r) => r.id));
      }
    }
    // Pages of 20 follow the same order without overlap.
    const first = await searchLearners(db, { search: "", course: "" }, 1, { sort: { key: "batches", dir: "desc" } });
    const second = await searchLearners(db, { search: "", course: "" }, 2, { sort: { key: "batches", dir: "desc" } });
    expect([...first.learners, ...second.learners].map((l) => l.id)).toEqual(
      sortRows(rows, "batches", "desc").map((r) => r.id),
    );
  });

  it("keeps exactly the learners each filter names, alone and together", async () => {
    const since = (days: number) => new Date(now - days * day).toISOString();
    const cases: [Partial<LearnerFilter>, (row: Row) => boolean][] = [
      [{}, () => true],
      [{ search: "ASHA" }, (r) => r.username.toLowerCase().includes("asha")],
      [{ search: "person1" }, (r) => r.email.includes("person1")],
      [{ search: "+91 98765" }, (r) => r.phone.includes("98765")],
      [{ course: "VFX" }, (r) => r.course === "VFX"],
      [{ batch: batchIds["batch north"] }, (r) => r.batches.includes("batch north")],
      [{ noResume: true }, (r) => !r.resume],
      [{ unread: true }, (r) => r.unread > 0],
      [{ inactiveDays: 30 }, (r) => (r.lastActiveAt ?? "") < since(30)],
      [{ stage: applicationStages[2] }, (r) => r.stages.includes(applicationStages[2]!)],
      // Days in the institute's zone (India): a learner who joined at 12:00 UTC is on that day there.
      [
        { joinedFrom: "2026-05-01", joinedTo: "2026-05-31" },
        (r) => r.createdAt >= "2026-05-01" && r.createdAt < "2026-06",
      ],
      [
        { course: "Python", noResume: true, unread: true, inactiveDays: 10 },
        (r) => r.course === "Python" && !r.resume && r.unread > 0 && (r.lastActiveAt ?? "") < since(10),
      ],
      [{ batch: batchIds["batch south"], search: "rao" }, (r) => r.batches.length === 1 && r.username.endsWith("rao")],
    ];
    for (const [filter, keep] of cases) {
      const want = expected(keep);
      expect(want.length, JSON.stringify(filter)).toBeLessThan(rows.length + 1);
      expect(await search(filter), JSON.stringify(filter)).toEqual(want);
    }
    // Each filter with a sort of a kept figure keeps the same learners in that order.
    const unreadNoResume = rows.filter((r) => r.unread > 0 && !r.resume);
    expect(await search({ unread: true, noResume: true }, { key: "batches", dir: "asc" })).toEqual(
      sortRows(unreadNoResume, "batches", "asc").map((r) => r.id),
    );
  });

  it("keeps each learner's resume, unread and first-batch figures in step with every write", async () => {
    const figures = async (id: string) =>
      db
        .selectFrom("user")
        .select(["hasResume", "unreadCount", "firstBatch"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    const learner = rows.find((r) => r.batches.length === 0 && !r.resume && r.unread === 0)!;
    expect(await figures(learner.id)).toEqual({ hasResume: 0, unreadCount: 0, firstBatch: null });

    await insertMessages(db, learner.id, 2);
    await db
      .insertInto("offer_letter")
      .values({ learnerId: learner.id, body: "<p>Offer</p>", updatedBy: null, updatedAt: new Date().toISOString() })
      .execute();
    await insertResume(db, learner.id);
    await db.insertInto("enrolment").values(enrolment(batchIds["batch south"]!, learner.id)).execute();
    expect(await figures(learner.id)).toEqual({ hasResume: 1, unreadCount: 3, firstBatch: "batch south" });

    // Reading one message and the offer letter; an earlier-named batch; a batch renamed.
    const [message] = await db
      .selectFrom("message")
      .select("id")
      .where("learnerId", "=", learner.id)
      .where("readAt", "is", null)
      .execute();
    await db.updateTable("message").set({ readAt: new Date().toISOString() }).where("id", "=", message!.id).execute();
    await db
      .updateTable("offer_letter")
      .set({ readAt: new Date().toISOString() })
      .where("learnerId", "=", learner.id)
      .execute();
    await db.insertInto("enrolment").values(enrolment(batchIds["batch north"]!, learner.id)).execute();
    expect(await figures(learner.id)).toEqual({ hasResume: 1, unreadCount: 1, firstBatch: "batch north" });
    await db.updateTable("batch").set({ name: "a batch" }).where("id", "=", batchIds["batch south"]!).execute();
    expect((await figures(learner.id)).firstBatch).toBe("a batch");
    // Another learner of that batch follows the rename too.
    const other = rows.find((r) => r.batches.includes("batch south"))!;
    expect((await figures(other.id)).firstBatch).toBe("a batch");

    // A replaced offer letter is unread again; deleting things takes them off.
    await db.updateTable("offer_letter").set({ readAt: null }).where("learnerId", "=", learner.id).execute();
    expect((await figures(learner.id)).unreadCount).toBe(2);
    await db.deleteFrom("message").where("learnerId", "=", learner.id).execute();
    await db.deleteFrom("offer_letter").where("learnerId", "=", learner.id).execute();
    await db.deleteFrom("resume").where("learnerId", "=", learner.id).execute();
    await db.deleteFrom("batch").where("id", "=", batchIds["batch south"]!).execute();
    expect(await figures(learner.id)).toEqual({ hasResume: 0, unreadCount: 0, firstBatch: "batch north" });
    expect((await figures(other.id)).firstBatch).toBe(other.batches.length > 1 ? "batch east" : null);
    await db.deleteFrom("enrolment").where("learnerId", "=", learner.id).execute();
    expect((await figures(learner.id)).firstBatch).toBeNull();

    // Deleting a learner with messages, a resume and batches takes their rows with them cleanly.
    const full = rows.find((r) => r.batches.length === 2 && r.resume && r.unread > 0)!;
    await db.deleteFrom("user").where("id", "=", full.id).execute();
    expect(await db.selectFrom("user").select("id").where("id", "=", full.id).executeTakeFirst()).toBeUndefined();
  });

  it("keeps each learner's overdue figure in step with their assignments' writes and as due dates pass", async () => {
    const overdue = async (id: string) =>
      Number(
        (await db.selectFrom("user").select("overdueCount").where("id", "=", id).executeTakeFirstOrThrow())
          .overdueCount,
      );
    const setStatus = (assignmentId: string, learnerId: string, status: AssignmentStatus) =>
      db
        .updateTable("learner_assignment")
        .set({ status })
        .where("assignmentId", "=", assignmentId)
        .where("learnerId", "=", learnerId)
        .execute();
    const learner = rows.find((r) => r.overdue === 0)!;
    const other = rows.find((r) => r.overdue === 2)!;
    expect([await overdue(learner.id), await overdue(other.id)]).toEqual([0, 2]);

    // A past-due assignment handed in, sent back, accepted; one not yet due counts nothing.
    const [first, second] = assignments.past as [string, string];
    await setStatus(first, learner.id, "not-started");
    expect(await overdue(learner.id)).toBe(1);
    await setStatus(first, learner.id, "submitted");
    expect(await overdue(learner.id)).toBe(0);
    await setStatus(first, learner.id, "changes-requested");
    expect(await overdue(learner.id)).toBe(1);
    await setStatus(first, learner.id, "accepted");
    expect(await overdue(learner.id)).toBe(0);
    await setStatus(assignments.ahead, learner.id, "changes-requested");
    expect(await overdue(learner.id)).toBe(0);

    // A due date moved into the past counts at once; moved ahead again, it stops counting.
    const soon = await insertAssignment(db, new Date(Date.now() + day).toISOString());
    await insertLearnerAssignment(db, soon, learner.id, "not-started");
    await insertLearnerAssignment(db, soon, other.id, "not-started");
    expect([await overdue(learner.id), await overdue(other.id)]).toEqual([0, 2]);
    await db
      .updateTable("assignment")
      .set({ dueAt: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", soon)
      .execute();
    expect([await overdue(learner.id), await overdue(other.id)]).toEqual([1, 3]);

    // The clock passes a due date: no write tells the database, the next round's pass counts it.
    const dueAt = new Date(Date.now() + 1500);
    await db.updateTable("assignment").set({ dueAt: dueAt.toISOString() }).where("id", "=", soon).execute();
    expect([await overdue(learner.id), await overdue(other.id)]).toEqual([0, 2]);
    const pass = countPassedDueDates(db);
    await pass(new Date());
    expect([await overdue(learner.id), await overdue(other.id)]).toEqual([0, 2]);
    await new Promise((resolve) => setTimeout(resolve, dueAt.getTime() - Date.now() + 50));
    expect(await overdue(learner.id)).toBe(0);
    await pass(new Date());
    expect([await overdue(learner.id), await overdue(other.id)]).toEqual([1, 3]);
    // Counted again by each round for a minute (a late commit is still seen), then marked counted.
    const countedAt = async () =>
      (await db.selectFrom("assignment").select("overdueCountedAt").where("id", "=", soon).executeTakeFirstOrThrow())
        .overdueCountedAt;
    expect(await countedAt()).toBeNull();
    const later = new Date(Date.now() + 2 * 60_000);
    await pass(later);
    expect(await countedAt()).toBe(later.toISOString());
    expect([await overdue(learner.id), await overdue(other.id)]).toEqual([1, 3]);

    // Handing it in, leaving the batch's assignment, a deleted assignment: each takes it off.
    await setStatus(soon, learner.id, "late");
    expect(await overdue(learner.id)).toBe(0);
    await db
      .deleteFrom("learner_assignment")
      .where("assignmentId", "=", second)
      .where("learnerId", "=", other.id)
      .execute();
    expect(await overdue(other.id)).toBe(2);
    await db.deleteFrom("assignment").where("id", "=", soon).execute();
    expect(await overdue(other.id)).toBe(1);
    // A learner's assignment moved to one not yet due stops counting.
    const ahead = await insertAssignment(db, new Date(Date.now() + day).toISOString());
    await db
      .updateTable("learner_assignment")
      .set({ assignmentId: ahead })
      .where("learnerId", "=", other.id)
      .where("assignmentId", "=", first)
      .execute();
    expect([await overdue(learner.id), await overdue(other.id)]).toEqual([0, 0]);
    // Every figure is what a count from the tables says.
    const counted = await db
      .selectFrom("user")
      .select((eb) => [
        "user.overdueCount",
        eb
          .selectFrom("learner_assignment as la")
          .innerJoin("assignment as a", "a.id", "la.assignmentId")
          .select((c) => c.fn.countAll<number | string>().as("n"))
          .whereRef("la.learnerId", "=", "user.id")
          .where("la.status", "in", ["not-started", "changes-requested"])
          .where("a.dueAt", "<", new Date().toISOString())
          .as("actual"),
      ])
      .execute();
    for (const row of counted) expect(Number(row.overdueCount)).toBe(Number(row.actual));
  });

  it("keeps every figure exact through bulk writes: a send to many, their read marks and deletes, an enrolment of many", async () => {
    const actual = async () =>
      db
        .selectFrom("user")
        .select((eb) => [
          "user.id",
          "user.unreadCount",
          "user.firstBatch",
          sql<
            number | string
          >`((select count(*) from "message" m where m."learnerId" = "user"."id" and m."readAt" is null)
            + (select count(*) from "offer_letter" o where o."learnerId" = "user"."id" and o."readAt" is null))`.as(
            "unread",
          ),
          eb
            .selectFrom("enrolment")
            .innerJoin("batch", "batch.id", "enrolment.batchId")
            .select((b) => b.fn.min("batch.name").as("first"))
            .whereRef("enrolment.learnerId", "=", "user.id")
            .as("first"),
        ])
        .where("user.id", "in", ids)
        .orderBy("user.id")
        .execute();
    const exact = async () => {
      for (const row of await actual()) {
        expect(Number(row.unreadCount), row.id).toBe(Number(row.unread));
        expect(row.firstBatch, row.id).toBe(row.first ?? null);
      }
    };
    const ids = rows.map((r) => r.id);
    const staffId = randomUUID();
    await db
      .insertInto("user")
      .values({
        id: staffId,
        name: "Staff",
        username: "Staff",
        email: "staff@example.in",
        emailVerified: false,
        image: null,
        createdAt: new Date(now).toISOString(),
        updatedAt: new Date(now).toISOString(),
        phone: null,
        course: null,
        gender: null,
        role: "admin",
      })
      .execute();
    const deps = { db, bus: new InProcessBus(createLogger("silent")) };
    const actor = { id: staffId, name: "Staff", role: "admin" };
    const before = new Map((await actual()).map((row) => [row.id, Number(row.unreadCount)]));

    // One statement of many messages: each learner's figure goes up by exactly one.
    const sent = await sendToSelected(deps, actor, { learnerIds: ids, kind: "notice", html: "<p>All of you</p>" });
    expect(sent.ok).toBe(true);
    for (const row of await actual()) expect(Number(row.unreadCount), row.id).toBe(before.get(row.id)! + 1);
    await exact();
    // Twice more, then read marks on many of one learner's messages at once, and a clear.
    await sendToSelected(deps, actor, { learnerIds: ids.slice(0, 20), kind: "task", html: "<p>Task</p>" });
    await sendToSelected(deps, actor, { learnerIds: ids.slice(10), kind: "notice", html: "<p>Again</p>" });
    await exact();
    const shown = await db
      .selectFrom("message")
      .select("id")
      .where("learnerId", "=", ids[12]!)
      .where("kind", "=", "notice")
      .execute();
    expect(
      await markShownRead(
        deps,
        ids[12]!,
        "notice",
        shown.map((m) => m.id),
      ),
    ).toBeGreaterThan(1);
    await db
      .updateTable("message")
      .set({ readAt: new Date().toISOString() })
      .where("learnerId", "in", ids.slice(0, 5))
      .execute();
    await clearMessages(deps, ids[15]!, "task");
    await exact();
    await db.deleteFrom("message").where("learnerId", "in", ids.slice(20, 30)).execute();
    await exact();

    // An enrolment of every learner in a batch named first: one first batch each, then its removal.
    const first = await insertBatch(db, "a first batch");
    const enrolled = await enrolLearners(deps, first, ids, actor);
    expect(enrolled).toMatchObject({ ok: true, enrolled: ids.length });
    for (const row of await actual()) expect(row.firstBatch).toBe("a first batch");
    await db.deleteFrom("enrolment").where("batchId", "=", first).where("learnerId", "in", ids.slice(0, 18)).execute();
    await exact();
    const inEast = rows.filter((r) => r.batches.includes("batch east")).map((r) => r.id);
    await db
      .updateTable("enrolment")
      .set({ batchId: batchIds["batch east"]! })
      .where("batchId", "=", first)
      .where("learnerId", "not in", inEast)
      .execute();
    await exact();
  });

  it("fills the figures in for learners already there when the migration runs", async () => {
    const old = await database.open({ migrate: false });
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0038"));
      await migrateToLatest(old.db, before);
      const ids: Record<string, string> = {};
      for (const name of batchNames) ids[name] = await insertBatch(old.db, name);
      const due = await insertAssignments(old.db);
      const mine = plannedRows().slice(0, 8);
      for (const row of mine) await insertRow(old.db, row, ids, due);
      await migrateToLatest(old.db);
      const got = await old.db
        .selectFrom("user")
        .select(["id", "hasResume", "unreadCount", "firstBatch", "overdueCount"])
        .where(
          "id",
          "in",
          mine.map((r) => r.id),
        )
        .execute();
      for (const row of mine) {
        expect(got.find((g) => g.id === row.id)).toEqual({
          id: row.id,
          hasResume: row.resume ? 1 : 0,
          unreadCount: row.unread,
          firstBatch: [...row.batches].sort()[0] ?? null,
          overdueCount: row.overdue,
        });
      }
      // The due dates already passed are counted; the one still ahead is left to the pass.
      const counted = await old.db.selectFrom("assignment").select(["id", "overdueCountedAt"]).execute();
      for (const one of counted) expect(one.overdueCountedAt === null, one.id).toBe(one.id === due.ahead);
    } finally {
      await old.dispose();
    }
  });
});

/** The table's order, worked out here from the rows (what each sort is documented to do). */
function sortRows(list: Row[], key: SortKey, dir: SortDirection): Row[] {
  const firstOf = (row: Row) => [...row.batches].sort()[0] ?? null;
  const value = (row: Row): (string | number)[] => {
    switch (key) {
      case "name":
        return [row.username.toLowerCase(), row.id];
      case "course":
        return [row.course, row.createdAt, row.id];
      case "phone":
        return [row.phone, row.id];
      case "joined":
        return [row.createdAt, row.id];
      case "active":
        return [row.lastActiveAt ?? "", row.id];
      case "resume":
        return [row.resume ? 1 : 0, row.createdAt, row.id];
      case "unread":
        return [row.unread, row.createdAt, row.id];
      case "overdue":
        return [row.overdue, row.createdAt, row.id];
      case "batches":
        return [firstOf(row) ?? "", row.createdAt, row.id];
    }
  };
  const sign = dir === "asc" ? 1 : -1;
  return [...list].sort((a, b) => {
    if (key === "batches" && (firstOf(a) === null) !== (firstOf(b) === null)) return firstOf(a) === null ? 1 : -1;
    const [x, y] = [value(a), value(b)];
    for (let i = 0; i < x.length; i++) {
      if (x[i]! < y[i]!) return -sign;
      if (x[i]! > y[i]!) return sign;
    }
    return 0;
  });
}

async function insertBatch(db: Db, name: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("batch")
    .values({
      id,
      name,
      course: "Java",
      startDate: "2026-01-01",
      endDate: "2026-12-31",
      payment: "upfront",
      termsId: null,
      courseSlug: null,
      createdAt: new Date().toISOString(),
    })
    .execute();
  return id;
}

const enrolment = (batchId: string, learnerId: string) => ({
  id: randomUUID(),
  batchId,
  learnerId,
  seeking: 1,
  graduation: "in-progress" as const,
  seekingAtGraduation: null,
  createdAt: new Date().toISOString(),
});

async function insertMessages(db: Db, learnerId: string, unread: number, read = 0) {
  for (let i = 0; i < unread + read; i++) {
    await db
      .insertInto("message")
      .values({
        id: randomUUID(),
        learnerId,
        kind: (["notice", "task", "certificate"] as const)[i % 3]!,
        body: "<p>Hello</p>",
        sentBy: null,
        sentAt: new Date(now - i * 1000).toISOString(),
        readAt: i < unread ? null : new Date(now).toISOString(),
      })
      .execute();
  }
}

async function insertResume(db: Db, learnerId: string) {
  await db
    .insertInto("resume")
    .values({
      learnerId,
      storageKey: `resumes/${learnerId}.pdf`,
      fileName: "resume.pdf",
      size: 1000,
      contentType: "application/pdf",
      uploadedAt: new Date(now).toISOString(),
    })
    .execute();
}

/** Three assignments past due and one due in a month (by the real clock, which the database keeps too). */
interface Assignments {
  past: string[];
  ahead: string;
}

async function insertAssignment(db: Db, dueAt: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("assignment")
    .values({
      id,
      batchId: null,
      title: `Assignment ${id.slice(0, 4)}`,
      instructions: "<p>Do it</p>",
      dueAt,
      handIn: "link",
      points: null,
      createdBy: null,
      createdByName: "Trainer",
      createdAt: new Date(now - 30 * day).toISOString(),
    })
    .execute();
  return id;
}

async function insertAssignments(db: Db): Promise<Assignments> {
  const past: string[] = [];
  for (const daysAgo of [3, 2, 1])
    past.push(await insertAssignment(db, new Date(Date.now() - daysAgo * day).toISOString()));
  return { past, ahead: await insertAssignment(db, new Date(Date.now() + 30 * day).toISOString()) };
}

async function insertLearnerAssignment(db: Db, assignmentId: string, learnerId: string, status: AssignmentStatus) {
  await db
    .insertInto("learner_assignment")
    .values({
      assignmentId,
      learnerId,
      status,
      points: null,
      submittedAt: null,
      reviewedAt: null,
      updatedAt: new Date().toISOString(),
    })
    .execute();
}

/** A learner and everything the table reads about them, written straight into the tables. */
async function insertRow(db: Db, row: Row, batchIds: Record<string, string>, assignments: Assignments) {
  await db
    .insertInto("user")
    .values({
      id: row.id,
      name: row.username,
      username: row.username,
      email: row.email,
      emailVerified: false,
      image: null,
      createdAt: row.createdAt,
      updatedAt: row.createdAt,
      phone: row.phone,
      course: row.course,
      gender: "female",
      role: null,
      lastActiveAt: row.lastActiveAt,
    })
    .execute();
  // One of the unread is the offer letter when there are some; one read message besides.
  if (row.unread > 0) {
    await db
      .insertInto("offer_letter")
      .values({ learnerId: row.id, body: "<p>Offer</p>", updatedBy: null, updatedAt: row.createdAt })
      .execute();
  }
  await insertMessages(db, row.id, Math.max(0, row.unread - 1), 1);
  if (row.resume) await insertResume(db, row.id);
  for (const name of row.batches) await db.insertInto("enrolment").values(enrolment(batchIds[name]!, row.id)).execute();
  // The first `overdue` past assignments waiting (one sent back for changes), the next handed in,
  // and the one not yet due never started: only the first count.
  for (const [i, assignmentId] of assignments.past.entries()) {
    const status = i < row.overdue ? (i === 1 ? "changes-requested" : "not-started") : i % 2 ? "late" : "accepted";
    await insertLearnerAssignment(db, assignmentId, row.id, status);
  }
  await insertLearnerAssignment(db, assignments.ahead, row.id, "not-started");
  for (const stage of row.stages) {
    await db
      .insertInto("job_application")
      .values({
        id: randomUUID(),
        learnerId: row.id,
        company: "Acme",
        role: "Developer",
        source: "own",
        stage: stage as never,
        interviewRound: 1,
        createdByName: "Staff",
        createdAt: row.createdAt,
        updatedAt: row.createdAt,
      })
      .execute();
  }
}
