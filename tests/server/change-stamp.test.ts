import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterEach, beforeEach, expect, it } from "vitest";
import { markFeedbackShown } from "~/assignments/submissions.server";
import { touch } from "~/core/transaction.server";
import { sql } from "kysely";
import { stampSql, tableShownTo } from "~/db/change-versions.server";
import type { DatabaseHandle, Db } from "~/db/database.server";
import { storeEnquiry } from "~/enquiries/enquiries.server";
import { addTaskLink, deleteTaskLink } from "~/learners/task-links.server";
import { updateOwnProfile } from "~/learners/profile.server";
import { saveEmailPreferences } from "~/mail/email-preferences.server";
import { defaultEmailPreferences } from "~/mail/email-kinds";
import { clearMessages, deleteMessage, markShownRead, sendMessage, setOfferLetter } from "~/messages/messages.server";
import { InProcessBus } from "~/realtime/bus.server";
import { changeRole } from "~/staff/staff-actions.server";
import { describeEachDatabase, insertUser, stampFor, type TestDatabaseHandle } from "../support/databases";

// The signed-in pages kept in memory are keyed by this stamp (decision 016): a write it missed
// would show a stale page; a write that moved another person's would only cost a render.
describeEachDatabase("the kept answers' stamp", (database) => {
  let handle: TestDatabaseHandle;
  let other: DatabaseHandle | undefined;
  const bus = new InProcessBus();
  let asha: { id: string; token: string; expiresAt: string };
  let ravi: { id: string; token: string };
  let admin: { id: string; token: string };

  async function person(db: Db, name: string, role: string | null = null) {
    const id = await insertUser(db, { name, email: `${name.toLowerCase()}@example.com`, role });
    const token = randomUUID();
    const now = new Date().toISOString();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    await db
      .insertInto("session")
      .values({
        id: randomUUID(),
        token,
        userId: id,
        expiresAt,
        createdAt: now,
        updatedAt: now,
        ipAddress: null,
        userAgent: null,
      })
      .execute();
    return { id, token, expiresAt };
  }

  beforeEach(async () => {
    handle = await database.open();
    asha = await person(handle.db, "Asha");
    ravi = await person(handle.db, "Ravi");
    admin = await person(handle.db, "Meera", "admin");
  });
  afterEach(async () => {
    await other?.close();
    other = undefined;
    await handle.dispose();
  });

  const stamps = async (on: DatabaseHandle = handle) => ({
    asha: await stampFor(on, asha.token),
    ravi: await stampFor(on, ravi.token),
    admin: await stampFor(on, admin.token),
  });

  it("stays the same while only reads happen, and is 'signed-out' without a session", async () => {
    const before = await stamps();
    for (let j = 0; j < 3; j++) await handle.db.selectFrom("user").selectAll().execute();
    expect(await stamps()).toEqual(before);
    expect(await handle.keptAnswerStamp("no-such-token")).toEqual({ stamp: "signed-out", sessionEndsAt: null });
    // Read with it: when the session ends, so that an answer is kept no longer.
    expect((await handle.keptAnswerStamp(asha.token)).sessionEndsAt).toBe(new Date(asha.expiresAt).getTime());
  });

  // PostgreSQL reads the stamps of requests that arrive together in one query.
  it("answers sessions asked together as one at a time, and one asked after a write sees it", async () => {
    const before = await stamps();
    const together = await Promise.all([asha, ravi, admin, asha].map((p) => stampFor(handle, p.token)));
    expect(together).toEqual([before.asha, before.ravi, before.admin, before.asha]);
    const inFlight = stampFor(handle, ravi.token);
    await saveEmailPreferences(handle.db, asha.id, { ...defaultEmailPreferences, notice: "off" });
    const afterWrite = stampFor(handle, asha.token);
    expect(await inFlight).toBe(before.ravi);
    expect(await afterWrite).not.toBe(before.asha);
    expect(await stampFor(handle, "no-such-token")).toBe("signed-out");
  });

  // Each write touches Asha: her next stamp differs; Ravi's does not; staff's when staff see it.
  const deps = () => ({ db: handle.db, bus });
  const meera = () => ({ id: admin.id, name: "Meera", role: "admin" });
  const sendTo = (learnerId: string) =>
    sendMessage(deps(), { learnerId, kind: "notice", html: "Hello", sentBy: admin.id }) as Promise<{ id: string }>;
  const writesForAsha: {
    name: string;
    staffSee: boolean;
    prepare?: () => Promise<string>;
    write: (id: string) => Promise<unknown>;
  }[] = [
    { name: "a notice", staffSee: true, write: () => sendTo(asha.id) },
    {
      name: "a read mark",
      staffSee: false,
      prepare: async () => (await sendTo(asha.id)).id,
      write: (id) => markShownRead(deps(), asha.id, "notice", [id]),
    },
    {
      name: "a feedback read mark",
      staffSee: false,
      prepare: async () => {
        const at = new Date().toISOString();
        const [assignmentId, commentId] = [randomUUID(), randomUUID()];
        await handle.db
          .insertInto("assignment")
          .values({
            id: assignmentId,
            batchId: null,
            title: "Stamp",
            instructions: "",
            dueAt: at,
            handIn: "link",
            points: null,
            createdBy: admin.id,
            createdByName: "Meera",
            createdAt: at,
          })
          .execute();
        await handle.db
          .insertInto("assignment_comment")
          .values({
            id: commentId,
            assignmentId,
            learnerId: asha.id,
            authorId: admin.id,
            authorName: "Meera",
            kind: "changes",
            body: "Again.",
            createdAt: at,
          })
          .execute();
        return commentId;
      },
      write: (id) => markFeedbackShown(deps(), asha.id, [id]),
    },
    {
      name: "a deleted notice",
      staffSee: true,
      prepare: async () => (await sendTo(asha.id)).id,
      write: (id) => deleteMessage(deps(), asha.id, id),
    },
    {
      name: "cleared notices",
      staffSee: true,
      prepare: async () => (await sendTo(asha.id)).id,
      write: () => clearMessages(deps(), asha.id, "notice"),
    },
    {
      name: "email settings",
      staffSee: false,
      write: () => saveEmailPreferences(handle.db, asha.id, { ...defaultEmailPreferences, notice: "off" }),
    },
    { name: "a task link", staffSee: true, write: () => addTaskLink(deps(), asha.id, "https://github.com/asha/one") },
    {
      name: "a deleted task link",
      staffSee: true,
      prepare: async () => {
        const added = await addTaskLink(deps(), asha.id, "https://github.com/asha/two");
        return added.ok ? added.taskLink.id : "";
      },
      write: (id) => deleteTaskLink(deps(), asha.id, id),
    },
    {
      name: "her profile",
      staffSee: true,
      write: () => updateOwnProfile(deps(), { id: asha.id, course: "Data" }, { phone: "9876543210", course: "Data" }),
    },
    {
      name: "an offer letter",
      staffSee: true,
      write: () => setOfferLetter(deps(), { learnerId: asha.id, html: "Offer", updatedBy: admin.id }),
    },
    {
      name: "a role change",
      staffSee: true,
      write: () => changeRole(deps(), meera(), { userId: asha.id, role: "staff" }),
    },
    {
      name: "a sign-out",
      staffSee: false,
      write: () => handle.db.deleteFrom("session").where("token", "=", asha.token).execute(),
    },
    {
      name: "her account's deletion",
      staffSee: true,
      write: () => handle.db.deleteFrom("user").where("id", "=", asha.id).execute(),
    },
  ];
  for (const { name, staffSee, prepare, write } of writesForAsha) {
    it(`moves with ${name}, for that person only`, async () => {
      const prepared = prepare ? await prepare() : "";
      const before = await stamps();
      await write(prepared);
      const after = await stamps();
      expect(after.asha).not.toBe(before.asha);
      // A deletion touches everyone's (a table write that names no one): only safe, not narrow.
      if (!name.includes("deletion")) expect(after.ravi).toBe(before.ravi);
      if (staffSee) expect(after.admin).not.toBe(before.admin);
      else expect(after.admin).toBe(before.admin);
    });
  }

  it("moves everyone's for a write that names no one, and staff's alone for an enquiry", async () => {
    let before = await stamps();
    await handle.db.updateTable("user").set({ name: "Ravi K" }).where("id", "=", ravi.id).execute();
    let after = await stamps();
    expect(after.asha).not.toBe(before.asha);
    expect(after.admin).not.toBe(before.admin);
    before = after;
    await storeEnquiry(deps(), {
      name: "Visitor",
      email: "visitor@example.com",
      phone: "9876543210",
      course: "",
      message: "Hello",
      callbackTime: "",
    } as never);
    after = await stamps();
    expect(after.asha).toBe(before.asha);
    expect(after.admin).not.toBe(before.admin);
  });

  it("stays for writes no kept page shows, and a rolled-back write", async () => {
    const before = await stamps();
    await handle.db
      .insertInto("rate_limit")
      .values({ key: "test:1", count: 1, windowStart: Date.now(), expiresAt: Date.now() + 60_000 })
      .execute();
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await touch(trx, { people: [asha.id] });
        await trx.updateTable("user").set({ name: "Nobody" }).execute();
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await stamps()).toEqual(before);
  });

  // A busy process reads the stamps of dozens of requests in one statement. PostgreSQL took a
  // small session table's `token = any(list)` as a scan testing each session against each
  // token: the most expensive statement of a working day, four times what finding them costs.
  it.runIf(database.dialect === "postgres")(
    "finds the sessions asked together by their tokens, not by testing every session against the list",
    async () => {
      const others = Array.from({ length: 300 }, () => ({ token: randomUUID(), id: randomUUID() }));
      await handle.db
        .insertInto("session")
        .values(
          others.map(({ token, id }) => ({
            id,
            token,
            userId: ravi.id,
            expiresAt: asha.expiresAt,
            createdAt: asha.expiresAt,
            updatedAt: asha.expiresAt,
          })),
        )
        .execute();
      await sql`analyze session`.execute(handle.db);
      const plan = await handle.db.connection().execute(async (connection) => {
        await sql.raw(`prepare asked_stamps(text[]) as ${stampSql("postgres")}`).execute(connection);
        // The plan a prepared statement settles on after its first runs.
        await sql`set plan_cache_mode = force_generic_plan`.execute(connection);
        const tokens = `{${[asha, ravi, ...others.slice(0, 7)].map((person) => person.token).join(",")}}`;
        // EXPLAIN takes no bound values: the tokens (UUIDs) stand in the text.
        const { rows } = await sql<{
          "QUERY PLAN": string;
        }>`${sql.raw(`explain execute asked_stamps('${tokens}')`)}`.execute(connection);
        await sql`deallocate asked_stamps`.execute(connection);
        await sql`reset plan_cache_mode`.execute(connection);
        return rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
      expect(plan).not.toMatch(/= ANY/i);
      expect(await stampFor(handle, asha.token)).not.toBe("signed-out");
    },
  );

  it("moves on another instance with the write of this one", async () => {
    other = await handle.reopen();
    const before = await stamps(other);
    await sendTo(asha.id);
    const after = await stamps(other);
    expect(after.asha).not.toBe(before.asha);
    expect(after.ravi).toBe(before.ravi);
    // Sign-out, revocation and role change made on this instance, seen on the other at once.
    await changeRole(deps(), meera(), { userId: ravi.id, role: "staff" });
    expect((await stamps(other)).ravi).not.toBe(after.ravi);
    await handle.db.deleteFrom("session").where("userId", "=", ravi.id).execute();
    expect(await stampFor(other, ravi.token)).toBe("signed-out");
  });

  it("has every server write raise the shared server version on SQLite only, where siblings need it", async () => {
    const serverVersion = async () =>
      Number(
        (await handle.db.selectFrom("change_version").select("version").where("key", "=", "server").executeTakeFirst())
          ?.version ?? 0,
      );
    const before = await serverVersion();
    await saveEmailPreferences(handle.db, asha.id, { ...defaultEmailPreferences, notice: "off" });
    // PostgreSQL's triggers tell outside writes by the connection: no row every writer waits on.
    expect(await serverVersion()).toBe(database.dialect === "sqlite" ? before + 1 : before);
  });

  it("moves for every session with a write made outside the server", async () => {
    other = await handle.reopen();
    const before = await stamps();
    await outsideWrite(database.dialect, handle, `update "user" set "name" = 'Asha R' where "id" = '${asha.id}'`);
    const after = await stamps();
    expect(after.asha).not.toBe(before.asha);
    expect(after.ravi).not.toBe(before.ravi);
    expect(after.admin).not.toBe(before.admin);
  });

  // The statistics' refresh writes SQLite's own tables, which a sibling would see as a write.
  it.skipIf(database.dialect !== "sqlite")(
    "stays on a sibling process when this one refreshes the planner's statistics",
    async () => {
      other = await handle.reopen();
      const observer = new DatabaseSync(handle.location);
      try {
        const dataVersion = () =>
          Number((observer.prepare("select data_version as v from pragma_data_version").get() as { v: number }).v);
        const before = await stamps(other);
        const seen = dataVersion();
        await handle.refreshStatistics!();
        expect(dataVersion()).not.toBe(seen);
        expect(await stamps(other)).toEqual(before);
      } finally {
        observer.close();
      }
    },
  );

  // After a checkpoint, the next write restarts the write-ahead log before it commits, and
  // data_version moves for everyone else at that moment, with no version raised yet.
  it.skipIf(database.dialect !== "sqlite")(
    "stays when a sibling process restarts the write-ahead log half-way through its write",
    async () => {
      const sibling = new DatabaseSync(handle.location);
      const observer = new DatabaseSync(handle.location);
      try {
        const dataVersion = () =>
          Number((observer.prepare("select data_version as v from pragma_data_version").get() as { v: number }).v);
        sibling.exec("PRAGMA busy_timeout = 5000");
        expect(sibling.prepare("PRAGMA wal_checkpoint(PASSIVE)").get()).toMatchObject({ busy: 0 });
        const before = await stamps();
        const seen = dataVersion();
        // A small page cache spills the write to the log before the commit: the restart happens then.
        sibling.exec("PRAGMA cache_size = 1");
        sibling.exec("begin immediate");
        const insert = sibling.prepare(`insert into change_version ("key", "version") values (?, 0)`);
        for (let i = 0; i < 500; i++) insert.run(`scratch:${i}:${"x".repeat(200)}`);
        expect(dataVersion()).not.toBe(seen);
        const during = stampFor(handle, ravi.token);
        // As the server's processes commit: with the server version raised.
        sibling.exec(`update change_version set "version" = "version" + 1 where "key" = 'server'`);
        sibling.exec("commit");
        expect(await during).toBe(before.ravi);
        expect(await stamps()).toEqual(before);
      } finally {
        sibling.close();
        observer.close();
      }
    },
  );

  // A long write (an import) in the same state is not waited for: taken for a write from
  // outside, as before, so the process's kept answers are made again and no request stalls.
  it.skipIf(database.dialect !== "sqlite")(
    "moves without waiting when a sibling holds the write lock long after restarting the log",
    async () => {
      const sibling = new DatabaseSync(handle.location);
      try {
        sibling.exec("PRAGMA busy_timeout = 5000");
        sibling.prepare("PRAGMA wal_checkpoint(PASSIVE)").get();
        const before = await stamps();
        sibling.exec("PRAGMA cache_size = 1");
        sibling.exec("begin immediate");
        const insert = sibling.prepare(`insert into change_version ("key", "version") values (?, 0)`);
        for (let i = 0; i < 500; i++) insert.run(`scratch:${i}:${"x".repeat(200)}`);
        const started = performance.now();
        const during = await stampFor(handle, ravi.token);
        expect(performance.now() - started).toBeLessThan(2_000);
        expect(during).not.toBe(before.ravi);
        sibling.exec(`update change_version set "version" = "version" + 1 where "key" = 'server'`);
        sibling.exec("commit");
        // The sibling's commit is put down to the server: the stamp moves no further.
        expect(await stampFor(handle, ravi.token)).toBe(during);
      } finally {
        sibling.close();
      }
    },
  );
});

/** A statement run as psql or the sqlite3 shell would: its own connection, not the server's. */
async function outsideWrite(dialect: string, handle: DatabaseHandle, statement: string) {
  if (dialect === "sqlite") {
    const raw = new DatabaseSync(handle.location);
    raw.exec("PRAGMA busy_timeout = 5000");
    raw.exec(statement);
    raw.close();
    return;
  }
  const client = new pg.Client({ connectionString: handle.location });
  await client.connect();
  await client.query(statement);
  await client.end();
}

describeEachDatabase("the tables the versions know", (database) => {
  it("names every table of the migrated database, so a write to a new one is classed", async () => {
    const handle = await database.open();
    try {
      const tables = (await handle.db.introspection.getTables()).map((table) => table.name);
      const unnamed = tables.filter((name) => !(name in tableShownTo) && !name.startsWith("kysely_"));
      expect(unnamed).toEqual([]);
      expect(tables.length).toBeGreaterThan(30);
    } finally {
      await handle.dispose();
    }
  });
});
