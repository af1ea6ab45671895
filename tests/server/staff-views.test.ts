import { afterEach, beforeEach, expect, it } from "vitest";
import { activityFlushEvery, activityStep, flushActivity, noteActivity } from "~/accounts/activity.server";
import type { loadStaffWorkspace } from "~/staff/staff-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness, type Learner } from "../support/test-app";

type Workspace = Awaited<ReturnType<typeof loadStaffWorkspace>>;

describeEachDatabase("staff saved views and last activity", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let staff: Learner;
  let other: Learner;
  let learner: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    staff = await h.signUp("Suresh");
    other = await h.signUp("Meera");
    learner = await h.signUp("Leena");
    await h.setRole(staff, "mentor");
    await h.setRole(other, "trainer");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const views = async (who: Learner) => (await h.load<Workspace>(who, "/staff")).data.savedViews;

  it("keeps each staff member's views apart, and a view's link opens its filters for anyone on staff", async () => {
    const saved = await h.act(staff, "/staff", {
      intent: "save-view",
      name: "Java, no resume",
      query: "course=Java&noResume=1&sort=active&dir=asc&page=3&selected=x&bogus=1",
    });
    expect(saved.data).toMatchObject({ ok: true, message: 'View "Java, no resume" saved.' });
    await h.act(other, "/staff", { intent: "save-view", name: "Mine", query: "q=asha" });

    const mine = await views(staff);
    expect(mine).toEqual([
      { id: expect.any(String), name: "Java, no resume", query: "course=Java&noResume=1&sort=active&dir=asc" },
    ]);
    expect((await views(other)).map((view) => view.name)).toEqual(["Mine"]);

    // The link, opened by the other staff member: the same filters and sort.
    const opened = await h.load(other, `/staff?view=${mine[0]!.id}`);
    expect(opened.status).toBe(302);
    expect(opened.location).toBe("/staff?course=Java&noResume=1&sort=active&dir=asc");
    expect((await h.load(other, "/staff?view=no-such-view")).status).toBe(404);
    // Learners never see a view.
    expect((await h.load(learner, `/staff?view=${mine[0]!.id}`)).status).toBe(403);

    // The same name again replaces the filters; only the owner deletes.
    const again = await h.act(staff, "/staff", { intent: "save-view", name: "Java, no resume", query: "course=Java" });
    expect(again.data).toMatchObject({ ok: true, message: 'View "Java, no resume" updated with these filters.' });
    expect((await views(staff)).map((view) => view.query)).toEqual(["course=Java"]);
    const refused = await h.act(other, "/staff", { intent: "delete-view", viewId: mine[0]!.id });
    expect(refused).toMatchObject({ status: 404, data: { message: "That view was already deleted." } });
    expect(await views(staff)).toHaveLength(1);
    const deleted = await h.act(staff, "/staff", { intent: "delete-view", viewId: mine[0]!.id });
    expect(deleted.data).toMatchObject({ ok: true, message: 'View "Java, no resume" deleted.' });
    expect(await views(staff)).toEqual([]);
    expect((await views(other)).map((view) => view.name)).toEqual(["Mine"]);

    const audit = await handle.db.selectFrom("staff_audit").select(["action", "target"]).orderBy("createdAt").execute();
    expect(audit.filter((row) => row.action.endsWith("-view")).map((row) => row.action)).toEqual([
      "save-view",
      "save-view",
      "save-view",
      "delete-view",
    ]);
  });

  it("refuses a view without a name, a learner's save, and a name too long", async () => {
    expect(await h.act(staff, "/staff", { intent: "save-view", name: "  ", query: "" })).toMatchObject({
      status: 400,
      data: { message: "Please name the view." },
    });
    expect(await h.act(staff, "/staff", { intent: "save-view", name: "x".repeat(81), query: "" })).toMatchObject({
      status: 400,
      data: { message: "A view's name can be at most 80 characters." },
    });
    expect((await h.act(learner, "/staff", { intent: "save-view", name: "Mine", query: "" })).status).toBe(403);
  });

  it("writes last activity at most once a step per person, in one statement for everyone noted", async () => {
    const lastActive = async (who: Learner) =>
      (await handle.db.selectFrom("user").select("lastActiveAt").where("id", "=", who.id).executeTakeFirstOrThrow())
        .lastActiveAt;
    const t0 = Date.now() + activityFlushEvery;
    await noteActivity(handle.db, learner.id, null, t0);
    await noteActivity(handle.db, staff.id, null, t0);
    await flushActivity(handle.db, t0);
    expect(await lastActive(learner)).toBe(new Date(t0).toISOString());
    expect(await lastActive(staff)).toBe(new Date(t0).toISOString());

    // Within the step nothing is noted; past it, the next flush writes the new time.
    const stored = new Date(t0).toISOString();
    await noteActivity(handle.db, learner.id, stored, t0 + activityStep - 1);
    await flushActivity(handle.db, t0 + activityStep - 1);
    expect(await lastActive(learner)).toBe(stored);
    const later = t0 + activityStep + activityFlushEvery;
    await noteActivity(handle.db, learner.id, stored, later);
    expect(await lastActive(learner)).toBe(new Date(later).toISOString());
    expect(await lastActive(staff)).toBe(stored);
  });
});
