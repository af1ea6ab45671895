import http from "node:http";
import path from "node:path";
import { once } from "node:events";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { pageCacheStage, type PageCacheStage } from "~/http/page-cache-stage.server";
import { InProcessBus } from "~/realtime/bus.server";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";

// A server keeps its public pages until an event says they changed; `npm run seed`, `role` or
// `restore` beside it (or psql, the sqlite3 shell) send none. The server reads a mark that
// those writes move, and its own and its siblings' writes leave, and drops the pages.
describeEachDatabase("writes made outside the server", (database) => {
  let handle: TestDatabaseHandle;
  let opened: DatabaseHandle[];
  let stage: PageCacheStage;
  let server: http.Server;
  let url: string;

  /** The same database opened as the project's commands open it. */
  const asCommand = async () => {
    const options =
      database.dialect === "sqlite"
        ? { dataDir: path.dirname(handle.location), sqliteFile: path.basename(handle.location) }
        : { databaseUrl: handle.location, dataDir: "" };
    const command = await openDatabase({ ...options, writer: "outside" });
    opened.push(command);
    return command;
  };
  const sibling = async () => {
    const other = await handle.reopen();
    opened.push(other);
    return other;
  };
  let people = 0;
  const addPerson = (on: DatabaseHandle) =>
    insertUser(on.db, { name: `Person${++people}`, email: `person${people}@example.com` });

  beforeEach(async () => {
    handle = await database.open();
    opened = [];
    const { db } = handle;
    stage = pageCacheStage({
      // The page shows how many people there are: any write to "user" changes it.
      render: async (path) => {
        const { count } = await db
          .selectFrom("user")
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow();
        return new Response(`<html><body>${path}: ${Number(count)} people</body></html>`);
      },
      bus: new InProcessBus(),
      secureHeaders: {},
      outsideWriteMark: () => handle.outsideWriteMark(),
      outsideCheckMs: 50,
    });
    server = http.createServer((req, res) => {
      if (!stage.answer(req, res, "/", req.url ?? "/", -1, "test")) res.writeHead(404).end();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    await stage.warm();
    // The mark's first reading.
    await new Promise((resolve) => setTimeout(resolve, 150));
  });
  afterEach(async () => {
    stage.stop();
    server.close();
    for (const other of opened) await other.close();
    await handle.dispose();
  });

  const page = async () => (await fetch(url)).text();

  it("keeps the mark through the server's own and a sibling's writes", async () => {
    const before = await handle.outsideWriteMark();
    await addPerson(handle);
    await addPerson(await sibling());
    expect(await handle.outsideWriteMark()).toBe(before);
    // The cached page was not dropped: those writes come with their own events.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await page()).toContain("/: 0 people");
  });

  it("drops the cached pages within a few checks of a command's write (seed, role, restore)", async () => {
    expect(await page()).toContain("/: 0 people");
    const before = await handle.outsideWriteMark();
    await addPerson(await asCommand());
    expect(await handle.outsideWriteMark()).not.toBe(before);
    await expect.poll(page, { timeout: 3000, interval: 50 }).toContain("/: 1 people");
  });

  it("drops them after a write from psql or the sqlite3 shell", async () => {
    expect(await page()).toContain("/: 0 people");
    const statement = `insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") values ('shell-1', 'Shell', 'shell@example.com', false, '2026-01-01', '2026-01-01')`;
    if (database.dialect === "sqlite") {
      const raw = new DatabaseSync(handle.location);
      raw.exec("PRAGMA busy_timeout = 5000");
      raw.exec(statement.replace("false", "0"));
      raw.close();
    } else {
      const client = new pg.Client({ connectionString: handle.location });
      await client.connect();
      await client.query(statement);
      await client.end();
    }
    await expect.poll(page, { timeout: 3000, interval: 50 }).toContain("/: 1 people");
  });
});
