import net from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { databaseUrlFor, newDatabaseName, onServer } from "../support/postgres-databases";
import { insertUser } from "../support/databases";

// On PostgreSQL every step of a change is a round trip, and under load each round trip also waits
// for a turn of the event loop. A transaction's begin goes out with its first statement, so a
// change with one statement costs two round trips (begin and statement; versions and commit),
// not three. Counted by a proxy in front of PostgreSQL: a round trip is the client writing again
// after the server answered (each way held a little, so that what is sent together arrives so).

const postgresUrl = process.env.TEST_DATABASE_URL;
const delayMs = 20;

/** A TCP proxy to PostgreSQL that counts round trips and holds what it passes on for `delayMs`, in order. */
function countingLink(target: URL): Promise<{ port: number; roundTrips: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const [host, port] = [target.hostname, Number(target.port || 5432)];
  let roundTrips = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    let answered = true;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    client.on("data", (chunk) => {
      if (answered) roundTrips++;
      answered = false;
      setTimeout(() => upstream.write(chunk), delayMs);
    });
    upstream.on("data", (chunk) =>
      setTimeout(() => {
        answered = true;
        client.write(chunk);
      }, delayMs),
    );
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        roundTrips: () => roundTrips,
        close: () => {
          for (const socket of sockets) socket.destroy();
          return new Promise((done) => server.close(() => done()));
        },
      }),
    ),
  );
}

if (!postgresUrl) {
  describe("PostgreSQL round trips", () => {
    it.skip("skipped: TEST_DATABASE_URL is not set", () => {});
  });
} else {
  describe("PostgreSQL round trips", () => {
    const name = newDatabaseName("upskill_round_trips");
    let link: Awaited<ReturnType<typeof countingLink>>;
    let database: DatabaseHandle;
    let learnerId: string;

    beforeAll(async () => {
      await onServer(postgresUrl, `CREATE DATABASE "${name}" TEMPLATE "${inject("postgresTemplate")}"`);
      const url = new URL(databaseUrlFor(postgresUrl, name));
      link = await countingLink(url);
      url.host = `127.0.0.1:${link.port}`;
      database = await openDatabase({ databaseUrl: url.toString(), dataDir: "" });
      learnerId = await insertUser(database.db, { name: "Round Trip", email: "round-trip@example.com" });
    });

    afterAll(async () => {
      await database?.close();
      await link?.close();
      await onServer(postgresUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });

    it("a transaction with one statement takes two round trips: its begin goes out with the statement", async () => {
      const save = (link: string) =>
        database.db.transaction().execute((trx) =>
          trx
            .insertInto("task_link")
            .values({ id: link, learnerId, link: `https://example.com/${link}`, createdAt: new Date().toISOString() })
            .execute(),
        );
      await save("warm"); // the pool's connection, made once
      const before = link.roundTrips();
      await save("measured");
      expect(link.roundTrips() - before).toBe(2);
      const rows = await database.db.selectFrom("task_link").select("id").where("learnerId", "=", learnerId).execute();
      expect(rows.map((row) => row.id).sort()).toEqual(["measured", "warm"]);
    });

    it("a statement that fails inside the transaction rolls the whole of it back", async () => {
      await expect(
        database.db.transaction().execute(async (trx) => {
          await trx
            .insertInto("task_link")
            .values({ id: "kept-out", learnerId, link: "https://example.com/x", createdAt: new Date().toISOString() })
            .execute();
          await trx
            .insertInto("task_link")
            .values({ id: "kept-out", learnerId, link: "https://example.com/y", createdAt: new Date().toISOString() })
            .execute();
        }),
      ).rejects.toThrow(/duplicate key/);
      const rows = await database.db.selectFrom("task_link").select("id").where("id", "=", "kept-out").execute();
      expect(rows).toEqual([]);
    });
  });
}
