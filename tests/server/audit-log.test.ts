import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { controlCharacterMessage } from "~/core/text";
import { startOfDay } from "~/learners/learner-filter.server";
import { auditMessages, auditPageSize, sentTextPreview, type AuditRow } from "~/staff/audit-log-query";
import type { loadAudit } from "~/staff/staff-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness, type Learner } from "../support/test-app";

type AuditData = Awaited<ReturnType<typeof loadAudit>>;

// The audit log's filters (who, action, learner by link or search, days), their combinations,
// its pages, the text a row sent, and who may read it, on both databases.

describeEachDatabase("the audit log", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let leena: Learner;
  let omkar: Learner;
  let suresh: Learner;
  let anita: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    leena = await h.signUp("Leena");
    omkar = await h.signUp("Omkar", { course: "Java" });
    suresh = await h.signUp("Suresh");
    anita = await h.signUp("Anita");
    await h.setRole(suresh, "mentor");
    await h.setRole(anita, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const load = (query: string, who: Learner = anita) =>
    h.load<AuditData>(who, `/staff/audit${query ? `?${query}` : ""}`);
  async function entries(query: string): Promise<AuditRow[]> {
    const page = await load(query);
    expect(page.status, query).toBe(200);
    return page.data.page.entries;
  }
  const summary = (rows: AuditRow[]) => rows.map((row) => [row.actorName, row.action, row.target]);

  /** Four sends: Suresh to Leena, Anita to Omkar and Leena, Anita to both ticked; then a role change. */
  async function someActions() {
    const send = async (who: Learner, fields: Record<string, string>) =>
      expect((await h.act(who, "/staff", fields)).status).toBe(200);
    await send(suresh, {
      intent: "send",
      learnerId: leena.id,
      kind: "notice",
      html: "Class at 4 pm\n\nBring a laptop",
    });
    await send(anita, {
      intent: "send",
      learnerId: omkar.id,
      kind: "task",
      html: "<b>Week 1</b><script>alert(1)</script>",
    });
    await send(anita, { intent: "send-selected", learnerIds: `${leena.id},${omkar.id}`, kind: "notice", html: "Both" });
    await send(anita, { intent: "save-offer-letter", learnerId: leena.id, html: "<p>Offer &amp; terms</p>" });
    await send(anita, { intent: "change-role", userId: suresh.id, role: "trainer" });
  }

  it("shows the log to admins only: a staff member, a learner and a visitor are refused whatever the filter", async () => {
    await someActions();
    for (const query of ["", `who=${anita.id}`, `learner=${leena.id}&action=send`]) {
      expect((await load(query)).status).toBe(200);
      const asStaff = await load(query, suresh);
      expect(asStaff.status).toBe(403);
      expect(asStaff.data).toMatchObject({ message: "You do not have access to this page." });
      expect((await load(query, leena)).status).toBe(403);
      const visitor = await h.load(null, `/staff/audit${query ? `?${query}` : ""}`);
      expect(visitor.status).toBe(302);
    }
  });

  it("filters by who, by action, by learner (link or search) and combines them", async () => {
    await someActions();
    expect(summary(await entries(""))).toEqual([
      ["Anita", "role-change", "Suresh"],
      ["Anita", "offer-letter", "Leena"],
      ["Anita", "send-selected", "Leena and Omkar"],
      ["Anita", "send", "Omkar"],
      ["Suresh", "send", "Leena"],
    ]);
    expect(summary(await entries(`who=${suresh.id}`))).toEqual([["Suresh", "send", "Leena"]]);
    expect(summary(await entries(`action=send`))).toEqual([
      ["Anita", "send", "Omkar"],
      ["Suresh", "send", "Leena"],
    ]);
    // By link: the rows about Leena alone (a send to both names no one learner).
    expect(summary(await entries(`learner=${leena.id}`))).toEqual([
      ["Anita", "offer-letter", "Leena"],
      ["Suresh", "send", "Leena"],
    ]);
    // By search, on name or email.
    expect(summary(await entries("q=OMK"))).toEqual([["Anita", "send", "Omkar"]]);
    expect(summary(await entries("q=leena%40example"))).toEqual(summary(await entries(`learner=${leena.id}`)));
    expect(await entries("q=nobody-by-that-name")).toEqual([]);
    // Combinations narrow further.
    expect(summary(await entries(`who=${anita.id}&action=send`))).toEqual([["Anita", "send", "Omkar"]]);
    expect(summary(await entries(`who=${anita.id}&learner=${leena.id}`))).toEqual([["Anita", "offer-letter", "Leena"]]);
    expect(await entries(`who=${suresh.id}&q=omkar`)).toEqual([]);
    expect(summary(await entries(`action=send&q=e`))).toEqual([
      ["Anita", "send", "Omkar"],
      ["Suresh", "send", "Leena"],
    ]);
    // An unknown person or learner is an empty log, not an error.
    expect(await entries(`who=${randomUUID()}`)).toEqual([]);
    expect(await entries(`learner=${randomUUID()}`)).toEqual([]);
    // The people who may act are the choices of Who.
    const page = await load("");
    expect(page.data.actors.map((actor) => actor.name).sort()).toEqual(["Anita", "Suresh"]);
    expect((await load(`learner=${leena.id}`)).data.learnerName).toBe("Leena");
  });

  it("links a row to its learner while they are one, and shows the text sent as plain text", async () => {
    await someActions();
    const rows = await entries("");
    const byAction = Object.fromEntries(rows.map((row) => [`${row.action}:${row.target}`, row]));
    expect(byAction["send:Leena"]).toMatchObject({ learnerId: leena.id, sentText: "Class at 4 pm\n\nBring a laptop" });
    // Stored sanitized; shown as its words, never its markup.
    expect(byAction["send:Omkar"]).toMatchObject({ learnerId: omkar.id, sentText: "Week 1", sentTextCut: false });
    expect(byAction["offer-letter:Leena"]).toMatchObject({ learnerId: leena.id, sentText: "Offer & terms" });
    // Sent to several: the text, no one learner to link to.
    expect(byAction["send-selected:Leena and Omkar"]).toMatchObject({ learnerId: null, sentText: "Both" });
    // A role change concerns a staff member now (no learner page), and sent nothing.
    expect(byAction["role-change:Suresh"]).toMatchObject({ learnerId: null, sentText: null });
  });

  it("shows a long text's start, and the whole of it when the address asks for that row", async () => {
    const long = `${"Mañana ".repeat(60)}end of the notice`;
    expect(
      (await h.act(anita, "/staff", { intent: "send", learnerId: leena.id, kind: "notice", html: long })).status,
    ).toBe(200);
    const [row] = await entries("");
    expect(row!.sentTextCut).toBe(true);
    expect(Array.from(row!.sentText!)).toHaveLength(sentTextPreview);
    expect(long.startsWith(row!.sentText!)).toBe(true);
    expect((await load("")).data.page.wholeText).toBeNull();
    const whole = await load(`text=${row!.id}`);
    expect(whole.data.page.wholeText).toEqual({ id: row!.id, text: long.trim() });
    // A row not on this page is not read.
    expect((await load(`text=${row!.id}&action=enrol`)).data.page.wholeText).toBeNull();
  });

  it("filters by days in the institute's time zone, alone and with the other filters", async () => {
    const zone = h.config.instituteTimeZone;
    const at = (day: string, minutes: number) =>
      new Date(Date.parse(startOfDay(day, zone)) + minutes * 60_000).toISOString();
    const insert = (target: string, createdAt: string, actorId = anita.id) =>
      handle.db
        .insertInto("staff_audit")
        .values({
          id: randomUUID(),
          actorId,
          actorName: actorId === anita.id ? "Anita" : "Suresh",
          action: "send",
          detail: "notice",
          targetId: leena.id,
          target,
          count: 1,
          createdAt,
          sentText: null,
        })
        .execute();
    await insert("day before", at("2026-03-10", -1));
    await insert("first minute", at("2026-03-10", 0));
    await insert("by Suresh", at("2026-03-11", 60), suresh.id);
    await insert("last minute", at("2026-03-12", 24 * 60 - 1));
    await insert("day after", at("2026-03-13", 0));
    const targets = async (query: string) => (await entries(query)).map((row) => row.target);
    expect(await targets("from=2026-03-10&to=2026-03-12")).toEqual(["last minute", "by Suresh", "first minute"]);
    expect(await targets("from=2026-03-12")).toEqual(["day after", "last minute"]);
    expect(await targets("to=2026-03-10")).toEqual(["first minute", "day before"]);
    expect(await targets("from=2026-03-11&to=2026-03-11")).toEqual(["by Suresh"]);
    expect(await targets(`from=2026-03-10&to=2026-03-12&who=${anita.id}`)).toEqual(["last minute", "first minute"]);
    expect(await targets(`from=2026-03-10&to=2026-03-12&learner=${leena.id}&action=send&who=${suresh.id}`)).toEqual([
      "by Suresh",
    ]);
    expect(await targets("from=2026-03-10&to=2026-03-12&action=enrol")).toEqual([]);
  });

  it(`reads the log in pages of ${auditPageSize}, older and newer, with the filters kept`, async () => {
    const start = Date.parse("2026-05-01T00:00:00Z");
    // Ids that sort alike in every collation (PostgreSQL's may pass over a UUID's dashes).
    const rows = Array.from({ length: 2 * auditPageSize + 7 }, (_, i) => ({
      id: `p${String(i).padStart(4, "0")}`,
      actorId: i % 2 === 0 ? anita.id : suresh.id,
      actorName: i % 2 === 0 ? "Anita" : "Suresh",
      action: "enrol" as const,
      detail: null,
      targetId: null,
      target: `t${i}`,
      count: 1,
      // Two at each time: the id orders them.
      createdAt: new Date(start + Math.floor(i / 2) * 1000).toISOString(),
      sentText: null,
    }));
    await handle.db.insertInto("staff_audit").values(rows).execute();
    const newestFirst = [...rows].sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
    );

    async function readAll(filter: string) {
      const seen: string[] = [];
      const pages = [];
      let query = filter;
      for (;;) {
        const page = (await load(query)).data.page;
        pages.push(page);
        seen.push(...page.entries.map((entry) => entry.id));
        if (!page.older) break;
        query = `${filter}&before=${encodeURIComponent(page.older)}`;
      }
      return { seen, pages };
    }
    const all = await readAll("action=enrol");
    expect(all.seen).toEqual(newestFirst.map((row) => row.id));
    expect(all.pages.map((page) => page.entries.length)).toEqual([auditPageSize, auditPageSize, 7]);
    expect(all.pages[0]!.newer).toBeNull();
    // Newer from the second page is the first page again.
    const back = (await load(`action=enrol&after=${encodeURIComponent(all.pages[1]!.newer!)}`)).data.page;
    expect(back.entries.map((entry) => entry.id)).toEqual(all.pages[0]!.entries.map((entry) => entry.id));
    expect(back.newer).toBeNull();
    expect(back.older).toBe(all.pages[0]!.older);
    // With a filter, the pages hold only its rows.
    const anitas = await readAll(`who=${anita.id}`);
    expect(anitas.seen).toEqual(newestFirst.filter((row) => row.actorId === anita.id).map((row) => row.id));
    expect(anitas.pages).toHaveLength(2);
  });

  it("refuses a bad address with a 400 and a message that says what is wrong", async () => {
    const refusals: [string, string][] = [
      ["action=launch-rockets", auditMessages.badAction],
      ["from=2026-02-30", "Please enter a date as YYYY-MM-DD."],
      ["to=yesterday", "Please enter a date as YYYY-MM-DD."],
      ["from=2026-03-02&to=2026-03-01", auditMessages.datesReversed],
      [`learner=${leena.id}&q=leena`, auditMessages.learnerTwice],
      ["before=last-tuesday", auditMessages.badPage],
      [`before=2026-01-01T00:00:00.000Z_a&after=2026-01-01T00:00:00.000Z_b`, auditMessages.badPage],
      [`after=${"9".repeat(300)}`, auditMessages.badPage],
      [`q=${"a".repeat(201)}`, auditMessages.searchTooLong],
      [`q=a%00b`, controlCharacterMessage],
      [`who=${"x".repeat(201)}`, "Unknown id."],
    ];
    for (const [query, message] of refusals) {
      const page = await load(query);
      expect({ query, status: page.status, data: page.data }).toEqual({ query, status: 400, data: { message } });
    }
  });
});
