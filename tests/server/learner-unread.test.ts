import { randomUUID } from "node:crypto";
import type { KyselyPlugin } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { DashboardData } from "~/dashboard/dashboard-page.server";
import { markReadMessages } from "~/dashboard/popups";
import { maxMarkedAtOnce, type ReadableKind } from "~/messages/kinds";
import { markShownRead, unreadCounts } from "~/messages/messages.server";
import { controlCharacterMessage } from "~/core/text";
import type { loadLearnerPage } from "~/staff/staff-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { createHarness, type Harness, type Learner } from "../support/test-app";

type LearnerPageData = Awaited<ReturnType<typeof loadLearnerPage>>;

describeEachDatabase("unread items per kind", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let first: Learner;
  let second: Learner;
  let admin: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    first = await h.signUp("first");
    second = await h.signUp("second");
    admin = await h.signUp("Anita");
    await h.setRole(admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const popup = async (learner: Learner, show: string) => {
    const page = await h.load<DashboardData>(learner, `/dashboard?show=${show}`);
    expect(page.status).toBe(200);
    return page.data.popup!;
  };
  const unread = async (learner: Learner) => (await h.load<DashboardData>(learner, "/dashboard")).data.learner.unread;
  const send = async (learnerId: string, kind: string, html: string) => {
    const sent = await h.act(admin, "/staff", { intent: "send", learnerId, kind, html });
    expect(sent.status, sent.data.message).toBe(200);
  };
  const markRead = (learner: Learner, kind: ReadableKind | string, ids: string[]) =>
    h.act(learner, "/dashboard", { intent: "mark-read", kind, ids: ids.join(" ") });

  it("counts unread per kind and marks read only the ids shown, of the learner's own", async () => {
    for (const n of [1, 2, 3]) await send(first.id, "notice", `<p>Notice ${n}</p>`);
    for (const n of [1, 2]) await send(first.id, "task", `<p>Task ${n}</p>`);
    await send(first.id, "certificate", "<p>Certified</p>");
    await send(second.id, "notice", "<p>Second's notice</p>");
    await h.act(admin, "/staff", { intent: "save-offer-letter", learnerId: first.id, html: "<p>Offer</p>" });
    expect(await unread(first)).toEqual({ notice: 3, task: 2, certificate: 1, offer: 1 });
    expect(await unread(second)).toEqual({ notice: 1, task: 0, certificate: 0, offer: 0 });

    const notices = await popup(first, "notices");
    expect(notices.items.map((item) => [item.read, item.sentBy])).toEqual([
      [false, "Anita"],
      [false, "Anita"],
      [false, "Anita"],
    ]);
    // Two of the three notices were shown: only those are read, and nothing of another kind.
    const shown = notices.items.slice(0, 2).map((item) => item.id);
    expect((await markRead(first, "notice", shown)).status).toBe(200);
    expect(await unread(first)).toEqual({ notice: 1, task: 2, certificate: 1, offer: 1 });
    expect((await popup(first, "notices")).items.map((item) => item.read)).toEqual([true, true, false]);

    // Ids of another kind than named, another learner's ids, unknown ids: nothing changes.
    const tasks = await popup(first, "tasks");
    const secondsNotice = (await popup(second, "notices")).items[0]!.id;
    expect((await markRead(first, "notice", [tasks.items[0]!.id, secondsNotice, randomUUID()])).status).toBe(200);
    expect(await unread(first)).toEqual({ notice: 1, task: 2, certificate: 1, offer: 1 });
    expect(await unread(second)).toEqual({ notice: 1, task: 0, certificate: 0, offer: 0 });
    // The second learner can't mark the first learner's items, of any kind.
    for (const [kind, show] of [
      ["notice", "notices"],
      ["task", "tasks"],
      ["certificate", "certificates"],
      ["offer", "offer-letter"],
    ] as const) {
      const ids = (await popup(first, show)).items.map((item) => item.id);
      expect((await markRead(second, kind, ids)).status).toBe(200);
    }
    expect(await unread(first)).toEqual({ notice: 1, task: 2, certificate: 1, offer: 1 });
    expect(await unread(second)).toEqual({ notice: 1, task: 0, certificate: 0, offer: 0 });

    // Marking what is already read changes nothing, and keeps the first reading's time.
    const readAt = await handle.db
      .selectFrom("message")
      .select("readAt")
      .where("id", "=", shown[0]!)
      .executeTakeFirst();
    expect((await markRead(first, "notice", shown)).status).toBe(200);
    expect(
      await handle.db.selectFrom("message").select("readAt").where("id", "=", shown[0]!).executeTakeFirst(),
    ).toEqual(readAt);

    // Each kind on its own.
    expect((await markRead(first, "task", [tasks.items[1]!.id])).status).toBe(200);
    expect(await unread(first)).toEqual({ notice: 1, task: 1, certificate: 1, offer: 1 });
  });

  it("refuses a mark-read without a known kind, without ids, or with too many or malformed ids", async () => {
    await send(first.id, "notice", "<p>Kept unread</p>");
    const id = (await popup(first, "notices")).items[0]!.id;
    for (const [fields, message] of [
      [{ ids: id }, markReadMessages.kind],
      [{ kind: "notices", ids: id }, markReadMessages.kind],
      [{ kind: "notice" }, markReadMessages.noIds],
      [{ kind: "notice", ids: "   " }, markReadMessages.noIds],
      [
        { kind: "notice", ids: Array.from({ length: maxMarkedAtOnce + 1 }, () => randomUUID()).join(" ") },
        markReadMessages.tooMany,
      ],
      [{ kind: "notice", ids: "x".repeat(maxMarkedAtOnce * 201 + 1) }, markReadMessages.tooMany],
      [{ kind: "notice", ids: `${id} ${"a".repeat(201)}` }, markReadMessages.badId],
      [{ kind: "notice", ids: `${id}\u0000` }, controlCharacterMessage],
    ] as const) {
      const refused = await h.act(first, "/dashboard", { intent: "mark-read", ...fields });
      expect([refused.status, refused.data.message], JSON.stringify(fields).slice(0, 80)).toEqual([400, message]);
    }
    expect((await unread(first)).notice).toBe(1);
    // As many as a popup shows at its longest is fine.
    const most = [id, ...Array.from({ length: maxMarkedAtOnce - 1 }, () => randomUUID())];
    expect((await markRead(first, "notice", most)).status).toBe(200);
    expect((await unread(first)).notice).toBe(0);
  });

  it("leaves older pages unread until they are shown", async () => {
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 60; i++) {
      await handle.db
        .insertInto("message")
        .values({
          id: randomUUID(),
          learnerId: first.id,
          kind: "task",
          body: `<p>Task ${i}</p>`,
          sentBy: admin.id,
          sentAt: new Date(start + i * 60_000).toISOString(),
          readAt: null,
        })
        .execute();
    }
    const firstPage = await popup(first, "tasks");
    expect(firstPage.items).toHaveLength(50);
    await markRead(
      first,
      "task",
      firstPage.items.map((item) => item.id),
    );
    expect((await unread(first)).task).toBe(10);
    // "Show older": the first page stays read, the newly shown ten are unread until marked.
    const both = await popup(first, "tasks&pages=2");
    expect(both.items.filter((item) => !item.read)).toHaveLength(10);
    expect(both.items.slice(0, 50).every((item) => item.read)).toBe(true);
    await markRead(
      first,
      "task",
      both.items.filter((item) => !item.read).map((item) => item.id),
    );
    expect((await unread(first)).task).toBe(0);
  });

  it("gives the offer letter read state, its date and writer; a replaced letter is unread again", async () => {
    expect((await popup(first, "offer-letter")).items).toEqual([]);
    const save = (html: string) =>
      h.act(admin, "/staff", { intent: "save-offer-letter", learnerId: first.id, html }).then((r) => r.status);
    expect(await save("<p>Offer v1</p>")).toBe(200);
    const v1 = (await popup(first, "offer-letter")).items[0]!;
    expect(v1).toMatchObject({ html: "<p>Offer v1</p>", read: false, sentBy: "Anita" });
    expect(v1.id).toBe(v1.date);
    expect((await unread(first)).offer).toBe(1);

    expect((await markRead(first, "offer", [v1.id])).status).toBe(200);
    expect((await unread(first)).offer).toBe(0);
    expect((await popup(first, "offer-letter")).items[0]!.read).toBe(true);

    await new Promise((r) => setTimeout(r, 5));
    expect(await save("<p>Offer v2</p>")).toBe(200);
    const v2 = (await popup(first, "offer-letter")).items[0]!;
    expect([v2.html, v2.read]).toEqual(["<p>Offer v2</p>", false]);
    expect(v2.date > v1.date).toBe(true);
    expect((await unread(first)).offer).toBe(1);
    // The version shown before the replacement marks nothing: the new letter was not shown yet.
    expect((await markRead(first, "offer", [v1.id])).status).toBe(200);
    expect((await unread(first)).offer).toBe(1);
    expect((await markRead(first, "offer", [v2.id])).status).toBe(200);
    expect((await unread(first)).offer).toBe(0);

    // The admin sees on the learner's page when it was read.
    const page = await h.load<LearnerPageData>(admin, `/staff/learners/${first.id}`);
    expect(page.data.offerLetter).toMatchObject({ html: "<p>Offer v2</p>", sentBy: "Anita" });
    expect(page.data.offerLetter!.readAt).not.toBeNull();
  });

  it("shows staff the read state of every kind sent", async () => {
    for (const kind of ["notice", "task", "certificate"]) {
      await send(first.id, kind, `<p>A ${kind}</p>`);
      // Newest first is by the time sent: two sends within one millisecond have no order.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const tasks = await popup(first, "tasks");
    await markRead(
      first,
      "task",
      tasks.items.map((item) => item.id),
    );
    const page = await h.load<LearnerPageData>(admin, `/staff/learners/${first.id}`);
    expect(page.data.sent.items.map((item) => [item.kind, item.readAt !== null])).toEqual([
      ["certificate", false],
      ["task", true],
      ["notice", false],
    ]);
  });

  it("reads every kind's count in one statement", async () => {
    await send(first.id, "task", "<p>One</p>");
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements++;
        return args.result;
      },
    };
    const db = handle.db.withPlugin(counting);
    expect(await unreadCounts(db, first.id)).toEqual({ notice: 0, task: 1, certificate: 0, offer: 0 });
    expect(statements).toBe(1);
    await markShownRead({ db: handle.db, bus: h.bus }, first.id, "task", [(await popup(first, "tasks")).items[0]!.id]);
    statements = 0;
    expect(await unreadCounts(db, first.id)).toEqual({ notice: 0, task: 0, certificate: 0, offer: 0 });
    expect(statements).toBe(1);
  });
});
