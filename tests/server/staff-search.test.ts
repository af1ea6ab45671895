import { randomUUID } from "node:crypto";
import { sql, type CompiledQuery } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Db } from "~/db/database.server";
import { countLearners, learnerWhere } from "~/learners/learner-filter.server";
import { coursesQuery, pageIdsQuery, searchLearners } from "~/staff/search.server";
import { passedDueDatesQuery } from "~/assignments/overdue-figure.server";
import { learnerCountCap } from "~/staff/staff-types";
import { sortKeys, type SortKey } from "~/staff/workspace-query";
import type { LearnerFilter } from "~/learners/learner-filter";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { queryPlan } from "../support/query-plan";
import { auditPageQuery } from "~/staff/audit-log.server";
import { auditQuerySchema, type AuditQuery } from "~/staff/audit-log-query";

// The search, filter and course list run on the 0003_staff indexes, on both databases.
// (bench/admin-search.ts measures them at 100,000 learners.)

describeEachDatabase("staff learner search plans", (database) => {
  let handle: TestDatabaseHandle;

  /** `count` learners named "learner <from + i>", a minute apart, every 50th given a role. */
  async function insertLearners(from: number, count: number) {
    const now = Date.now();
    const rows = Array.from({ length: count }, (_, k) => {
      const i = from + k;
      const at = new Date(now - i * 60_000).toISOString();
      return {
        id: randomUUID(),
        name: `learner ${i}`,
        username: `learner ${i}`,
        email: `l${i}@example.com`,
        emailVerified: false,
        image: null,
        createdAt: at,
        updatedAt: at,
        phone: `98765${String(i).padStart(5, "0")}`,
        course: ["Python", "Java", "VFX", "SEO"][i % 4]!,
        gender: "female",
        role: i % 50 === 0 ? "mentor" : null,
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await handle.db
        .insertInto("user")
        .values(rows.slice(i, i + 500))
        .execute();
    if (handle.dialect === "postgres") await sql`analyze "user"`.execute(handle.db);
  }

  beforeEach(async () => {
    handle = await database.open();
    await insertLearners(0, 200);
  });
  afterEach(async () => {
    await handle.dispose();
  });

  const everyone: LearnerFilter = { search: "", course: "" };
  const countPlan = (filter: Partial<LearnerFilter>) =>
    plan(
      handle.db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll().as("n"))
        .where(learnerWhere({ ...everyone, ...filter }))
        .compile(),
    );

  const plan = (query: CompiledQuery) => queryPlan(handle, query);

  it("pages through learners newest first on the learner index", async () => {
    const text = await plan(pageIdsQuery(handle.db, { search: "", course: "" }, 40).compile());
    expect(text).toContain("user_learner_created_idx");
    expect(text).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it("filters by course on the course index, in order", async () => {
    const text = await plan(pageIdsQuery(handle.db, { search: "learner 1", course: "Java" }, 0).compile());
    expect(text).toContain("user_learner_course_idx");
    expect(text).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it("reads every sort, both ways, in the order of an index (no sort step, nothing worked out per learner)", async () => {
    const indexes: Record<SortKey, [string, string]> = {
      name: ["user_learner_name_idx", "user_learner_name_idx"],
      course: ["user_learner_course_idx", "user_learner_course_idx"],
      batches: ["user_learner_batch_idx", "user_learner_batch_desc_idx"],
      phone: ["user_learner_phone_idx", "user_learner_phone_idx"],
      joined: ["user_learner_created_idx", "user_learner_created_idx"],
      resume: ["user_learner_resume_idx", "user_learner_resume_idx"],
      active: ["user_learner_active_idx", "user_learner_active_idx"],
      unread: ["user_learner_unread_idx", "user_learner_unread_idx"],
      overdue: ["user_learner_overdue_idx", "user_learner_overdue_idx"],
    };
    for (const key of sortKeys) {
      for (const [i, dir] of (["asc", "desc"] as const).entries()) {
        const text = await plan(pageIdsQuery(handle.db, everyone, 40, { sort: { key, dir } }).compile());
        const sortStep = text.split("\n").filter((line) => /TEMP B-TREE|Sort/.test(line));
        expect(text, `${key} ${dir}`).toContain(indexes[key][i]);
        expect(sortStep, `${key} ${dir}`).toEqual([]);
      }
    }
  });

  it("filters by resume, unread and the other filters on the learner's own row or the filter's own index", async () => {
    const pageOf = (filter: Partial<LearnerFilter>) =>
      plan(pageIdsQuery(handle.db, { ...everyone, ...filter }, 0).compile());
    // No resume, newest first: read in order from the resume index.
    const noResume = await pageOf({ noResume: true });
    expect(noResume).toContain("user_learner_resume_idx");
    expect(noResume).not.toMatch(/TEMP B-TREE|Sort/);
    // Unread: a figure on the row, never the messages (only the page's own counts read them).
    const unread = await countPlan({ unread: true });
    expect(unread).not.toMatch(/message|offer_letter/);
    expect(unread).toMatch(/user_learner_\w+_idx/);
    // A batch or a stage: driven from its own index.
    expect(await countPlan({ batch: "b1" })).toMatch(
      /enrolment_batch_learner_unique|sqlite_autoindex_enrolment_\d \(batchId=\?\)/,
    );
    expect(await countPlan({ stage: "interview" })).toContain("job_application_stage_idx");
    // Not active for N days: the activity index.
    // (PostgreSQL reads a table this small in any learner index: everyone matches.)
    const inactive = await countPlan({ inactiveDays: 30 });
    expect(inactive).toMatch(
      handle.dialect === "sqlite" ? /user_learner_active_idx/ : /Index (Only )?Scan using user_learner_/,
    );
    // Joined between two days: a range of the joining index.
    expect(await countPlan({ joinedFrom: "2026-01-01", joinedTo: "2026-02-01" })).toContain("user_learner_created_idx");
  });

  it("reads a broad 'not active' filter in the sort's order, and by activity in the activity index's", async () => {
    const inactive = { ...everyone, inactiveDays: 30 };
    const joined = await plan(pageIdsQuery(handle.db, inactive, 40).compile());
    expect(joined).not.toContain("user_learner_active_idx");
    // (PostgreSQL sorts a table this small whichever index it reads; its statistics choose at 100,000.)
    if (handle.dialect === "sqlite") {
      expect(joined).toContain("user_learner_created_idx");
      expect(joined).not.toMatch(/TEMP B-TREE|Sort/);
    }
    for (const dir of ["asc", "desc"] as const) {
      const byActivity = await plan(pageIdsQuery(handle.db, inactive, 40, { sort: { key: "active", dir } }).compile());
      expect(byActivity).toContain("user_learner_active_idx");
      expect(byActivity).not.toMatch(/TEMP B-TREE|Sort/);
    }
  });

  it("reads a few matches (no more than a count shows) through the count's index, then their rows by id", async () => {
    const text = await plan(
      pageIdsQuery(handle.db, { ...everyone, search: "rner 1" }, 0, {
        few: true,
        sort: { key: "name", dir: "asc" },
      }).compile(),
    );
    if (handle.dialect === "sqlite") {
      expect(text).toContain("COVERING INDEX user_learner_search_idx");
      expect(text).toContain("sqlite_autoindex_user_1 (id=?)");
      expect(text).not.toContain("user_learner_name_idx");
    } else {
      expect(text).toMatch(/CTE Scan on matching/);
      expect(text).toContain("user_pkey");
    }
    const batch = await plan(pageIdsQuery(handle.db, { ...everyone, batch: "b1" }, 0, { few: true }).compile());
    expect(batch).toMatch(/enrolment_batch_learner_unique|sqlite_autoindex_enrolment_\d \(batchId=\?\)/);
  });

  it("finds the due dates passed since the overdue pass last counted them on their own index", async () => {
    const text = await plan(passedDueDatesQuery(handle.db, new Date().toISOString()).compile());
    expect(text).toContain("assignment_overdue_pending_idx");
    expect(text).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it("lists the distinct courses by seeking the course index, not reading every learner", async () => {
    const text = await plan(coursesQuery.compile(handle.db));
    expect(text).toContain("user_learner_course_idx");
    const courses = await coursesQuery.execute(handle.db);
    expect(courses.rows.map((r) => r.course)).toEqual(["Java", "Python", "SEO", "VFX"]);
  });

  it("counts a search from indexes that serve 'contains' (SQLite: the narrow search index; PostgreSQL: trigrams)", async () => {
    const countOf = (search: string) =>
      handle.db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll().as("n"))
        .where(learnerWhere({ search, course: "" }))
        .compile();
    const byText = countOf("rner 1");
    const byPhone = countOf("+91 98765");
    if (handle.dialect === "sqlite") {
      expect(await plan(byText)).toContain("COVERING INDEX user_learner_search_idx");
      // A phone search reads an index that holds the phone (the table's phone sort, or the search's).
      expect(await plan(byPhone)).toMatch(/COVERING INDEX user_learner_(phone|search)_idx/);
    } else {
      // On a table this small the planner prefers a btree that leads with the learner condition;
      // the bench shows it choosing trigrams at 100,000 learners. Here those are dropped inside a
      // transaction that is then rolled back, to show that the trigram indexes serve the search (a
      // GIN index is read by a bitmap scan, which the page plans above rule out).
      const plans: string[] = [];
      await handle.db
        .transaction()
        .execute(async (trx: Db) => {
          const btrees = [
            ...["search", "created", "course", "phone", "active"],
            ...["name", "resume", "unread", "batch", "batch_desc", "overdue"],
          ].map((n) => `user_learner_${n}_idx`);
          for (const index of btrees) {
            await sql`drop index ${sql.ref(index)}`.execute(trx);
          }
          await sql`set local enable_seqscan = off`.execute(trx);
          for (const query of [byText, byPhone]) {
            const result = await trx.executeQuery<{ "QUERY PLAN": string }>({ ...query, sql: `explain ${query.sql}` });
            plans.push(result.rows.map((r) => r["QUERY PLAN"]).join("\n"));
          }
          throw new Error("rolled back");
        })
        .catch((error: Error) => {
          if (error.message !== "rolled back") throw error;
        });
      expect(plans[0]).toContain("user_learner_username_trgm_idx");
      expect(plans[0]).toContain("user_learner_email_trgm_idx");
      expect(plans[1]).toContain("user_learner_phone_trgm_idx");
    }
    const [row] = (await handle.db.executeQuery<{ n: number | string }>(byText)).rows;
    expect(Number(row!.n)).toBeGreaterThan(0);
    const [phones] = (await handle.db.executeQuery<{ n: number | string }>(byPhone)).rows;
    expect(Number(phones!.n)).toBeGreaterThan(0);
  });

  it("counts up to the cap on each page, and exactly when asked or when a page lies past the end", async () => {
    await insertLearners(200, 1000);
    const everyone = { search: "", course: "" };
    const learners = 1200 - 1200 / 50;
    expect(learners).toBeGreaterThan(learnerCountCap);
    expect(await countLearners(handle.db, everyone, 10)).toBe(11);
    expect(await countLearners(handle.db, everyone)).toBe(learners);

    const first = await searchLearners(handle.db, everyone, 1);
    expect(first).toMatchObject({ total: null, page: 1, pages: null, hasNext: true });
    expect(first.learners.map((l) => l.username)).toEqual(
      Array.from({ length: 21 }, (_, i) => `learner ${i}`)
        .filter((_, i) => i % 50 !== 0)
        .slice(0, 20),
    );
    const exact = await searchLearners(handle.db, everyone, 1, { exactCount: true });
    expect(exact).toMatchObject({ total: learners, pages: Math.ceil(learners / 20), hasNext: true });

    const past = await searchLearners(handle.db, everyone, 5000);
    const lastPage = Math.ceil(learners / 20);
    expect(past).toMatchObject({ total: learners, page: lastPage, pages: lastPage, hasNext: false });
    expect(past.learners).toHaveLength(learners - (lastPage - 1) * 20);
    expect(past.learners.at(-1)!.username).toBe("learner 1199");

    const few = await searchLearners(handle.db, { search: "learner 11", course: "" }, 1);
    expect(few).toMatchObject({ total: 109, pages: 6, hasNext: true });
    const lastOfFew = await searchLearners(handle.db, { search: "learner 11", course: "" }, 6);
    expect(lastOfFew).toMatchObject({ total: 109, page: 6, hasNext: false });
    expect(lastOfFew.learners).toHaveLength(9);
  });
});

// The audit log's filters run on the 0046_audit_filters indexes (and the date range on 0003's
// createdAt index), each reading newest first in the index's order, on both databases.
describeEachDatabase("audit log plans", (database) => {
  let handle: TestDatabaseHandle;
  const actors = [randomUUID(), randomUUID(), randomUUID()];
  const learners = Array.from({ length: 20 }, () => randomUUID());

  beforeEach(async () => {
    handle = await database.open();
    const at = Date.parse("2026-01-01T00:00:00Z");
    for (const id of [...actors, ...learners]) {
      const createdAt = new Date(at).toISOString();
      await handle.db
        .insertInto("user")
        .values({
          id,
          name: id,
          username: id,
          email: `${id}@example.com`,
          emailVerified: false,
          image: null,
          createdAt,
          updatedAt: createdAt,
          role: actors.includes(id) ? "admin" : null,
        })
        .execute();
    }
    // The first actor, "enrol" and the first five learners are rare (as one trainer, one
    // action or one learner is in a long log): the planner weighs an index by how many rows
    // it would pass over, and reading those in the log's order would pass over most of it.
    const rows = Array.from({ length: 6000 }, (_, i) => ({
      id: randomUUID(),
      actorId: i % 50 === 0 ? actors[0]! : actors[1 + (i % 2)]!,
      actorName: `actor ${i % 3}`,
      action: i % 50 === 7 ? ("enrol" as const) : (["send", "bulk-send", "role-change"] as const)[i % 3]!,
      detail: "notice",
      targetId: i % 1000 < 5 ? learners[i % 1000]! : i % 4 === 1 ? null : learners[5 + (i % 15)]!,
      target: `learner ${i % 20}`,
      count: 1,
      createdAt: new Date(at + i * 600_000).toISOString(),
      sentText: i % 4 === 0 ? `text ${i}` : null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await handle.db
        .insertInto("staff_audit")
        .values(rows.slice(i, i + 500))
        .execute();
    if (handle.dialect === "postgres") await sql`analyze "staff_audit"`.execute(handle.db);
  });
  afterEach(async () => {
    await handle.dispose();
  });

  const none: AuditQuery = auditQuerySchema.parse({});
  const planOf = (query: Partial<AuditQuery>, learnerIds: string[] | null = null) =>
    queryPlan(handle, auditPageQuery(handle.db, { ...none, ...query }, "Asia/Kolkata", learnerIds).compile());
  const sortStep = (text: string) => text.split("\n").filter((line) => /TEMP B-TREE|Sort/.test(line));
  const place = `2026-01-10T00:00:00.000Z_${randomUUID()}`;

  it("reads each filter (and who with action) on its own index, newest first with no sort step, from any page", async () => {
    const cases: [Partial<AuditQuery>, string][] = [
      [{}, "staff_audit_created_idx"],
      [{ from: "2026-01-05", to: "2026-01-12" }, "staff_audit_created_idx"],
      [{ who: actors[0]! }, "staff_audit_actor_idx"],
      [{ action: "enrol" }, "staff_audit_action_idx"],
      [{ learner: learners[3]! }, "staff_audit_target_idx"],
      [{ who: actors[0]!, action: "enrol" }, "staff_audit_actor_action_idx"],
    ];
    for (const [query, index] of cases) {
      for (const page of [{}, { before: place }, { after: place }]) {
        const text = await planOf({ ...query, ...page });
        const named = JSON.stringify({ ...query, ...page });
        expect(text, named).toContain(index);
        expect(sortStep(text), named).toEqual([]);
      }
    }
  });

  it("reads a learner search's learners on the learner index, and every combination on one of the audit indexes", async () => {
    const searched = await planOf({ q: "learner" }, learners.slice(0, 5));
    expect(searched).toContain("staff_audit_target_idx");
    const combinations: Partial<AuditQuery>[] = [
      { who: actors[1]!, action: "role-change" },
      { who: actors[1]!, learner: learners[2]! },
      { action: "send", learner: learners[2]!, from: "2026-01-02", to: "2026-01-20" },
      { who: actors[2]!, from: "2026-01-02", before: place },
      { action: "role-change", to: "2026-01-20", after: place },
    ];
    for (const query of combinations) {
      const text = await planOf(query);
      expect(text, JSON.stringify(query)).toMatch(/staff_audit_(created|actor|actor_action|action|target)_idx/);
      // Never the whole table read row by row.
      expect(text, JSON.stringify(query)).not.toMatch(/^SCAN staff_audit$|Seq Scan on staff_audit/m);
    }
  });
});
