import os from "node:os";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, pingDatabase, type DatabaseHandle } from "~/db/database.server";
import { databaseUrlFor, newDatabaseName, onServer } from "../support/postgres-databases";

// PostgreSQL ends a connection (a restart, a failover, a dropped database) while a transaction
// holds it between two statements: nothing is being asked on it, so the error comes as an event
// on the connection. Unheard, Node ends the whole process with it.

const postgresUrl = process.env.TEST_DATABASE_URL;

if (!postgresUrl) {
  describe("a PostgreSQL connection ended under a transaction", () => {
    it.skip("skipped: TEST_DATABASE_URL is not set", () => {});
  });
} else {
  describe("a PostgreSQL connection ended under a transaction", () => {
    const name = newDatabaseName("upskill_connection_loss");
    const reported: Error[] = [];
    let handle: DatabaseHandle;

    beforeAll(async () => {
      await onServer(postgresUrl, `CREATE DATABASE "${name}" TEMPLATE "${inject("postgresTemplate")}"`);
      handle = await openDatabase({
        databaseUrl: databaseUrlFor(postgresUrl, name),
        dataDir: os.tmpdir(),
        onConnectionError: (error) => reported.push(error),
      });
    });
    afterAll(async () => {
      await handle?.close();
      await onServer(postgresUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });

    it("is reported, fails the transaction, and the next statement gets a new connection", async () => {
      const transaction = handle.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        await onServer(postgresUrl, `select pg_terminate_backend(${Number(rows[0]!.pid)})`);
        // Between statements: the server's goodbye arrives while nothing is asked.
        await expect.poll(() => reported.length, { timeout: 5_000 }).toBe(1);
        await sql`select 1`.execute(trx);
      });
      await expect(transaction).rejects.toThrow();
      expect((reported[0] as Error & { code?: string }).code).toBe("57P01");
      expect(await pingDatabase(handle.db)).toBe(true);
      expect(reported).toHaveLength(1);
    });
  });
}
