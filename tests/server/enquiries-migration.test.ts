import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { migrations } from "~/db/migrations";
import { describeEachDatabase, insertUser, type TestDatabaseHandle } from "../support/databases";

// Migration 0022 lets mail_job.learnerId be null (on SQLite by building the table again):
// queued and finished emails of a running site must come through it unchanged.

describeEachDatabase("migration 0022_enquiries over a site with queued mail", (database) => {
  let handle: TestDatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it("keeps every mail job, its indexes and its cascade, and allows mail about no account", async () => {
    handle = await database.open({ migrate: false });
    const db = handle.db;
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0022"));
    await migrateToLatest(db, before);
    const learnerId = await insertUser(db, { name: "Asha", email: "asha@example.com" });
    const job = (key: string, status: "pending" | "sent") => ({
      key,
      kind: "notice" as const,
      learnerId,
      refId: "m1",
      windowStart: null,
      windowEnd: null,
      status,
      attempts: status === "sent" ? 1 : 0,
      nextAttemptAt: 1_700_000_000_000,
      lockedUntil: null,
      lastError: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      finishedAt: status === "sent" ? "2026-01-01T00:01:00.000Z" : null,
    });
    await db
      .insertInto("mail_job")
      .values([job("message:1", "pending"), job("message:2", "sent")])
      .execute();

    const throughEnquiries = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => name <= "0022_enquiries"),
    );
    const result = await migrateToLatest(db, throughEnquiries);
    expect(result.results?.map((r) => [r.migrationName, r.status])).toEqual([["0022_enquiries", "Success"]]);
    const rows = await db.selectFrom("mail_job").selectAll().orderBy("key").execute();
    expect(rows.map((row) => ({ ...row, nextAttemptAt: Number(row.nextAttemptAt) }))).toEqual([
      job("message:1", "pending"),
      job("message:2", "sent"),
    ]);
    await db
      .insertInto("mail_job")
      .values({ ...job("enquiry:1", "pending"), kind: "enquiry", learnerId: null })
      .execute();
    const indexes =
      database.dialect === "sqlite"
        ? await sql<{
            name: string;
          }>`select name from sqlite_schema where type = 'index' and tbl_name = 'mail_job' and name not like 'sqlite_%'`.execute(
            db,
          )
        : await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'mail_job' and indexname <> 'mail_job_pkey'`.execute(
            db,
          );
    expect(indexes.rows.map((row) => row.name).sort()).toEqual([
      "mail_job_due_idx",
      "mail_job_finished_idx",
      "mail_job_learner_idx",
    ]);
    // Erasing the account still takes its jobs with it.
    await db.deleteFrom("user").where("id", "=", learnerId).execute();
    expect((await db.selectFrom("mail_job").select("key").execute()).map((row) => row.key)).toEqual(["enquiry:1"]);
  });
});
