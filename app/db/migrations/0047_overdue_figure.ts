import { PostgresAdapter, sql, type Kysely, type RawBuilder } from "kysely";

/**
 * The staff table's "Assignments overdue" column (decision 025): on the learner's row, how many
 * of their assignments are past due and still waiting for them (not started, or sent back for
 * changes), kept like the other figures of 0038 so that the column sorts on an index.
 *
 * A figure that changes with the clock as well as with writes is kept by two things:
 * - triggers, for every write that changes it: a learner's assignment added, removed or changed
 *   in status (or moved to another learner or assignment), and an assignment's due date moved.
 *   Each recounts the learner's figure as of the database's clock, and only when the write
 *   touches an assignment already past due (one still ahead counts nothing yet);
 * - a pass on the clock (`countPassedDueDates`, in the mail worker's round on every instance),
 *   for the assignments whose due date has passed since: each assignment's
 *   `overdueCountedAt` says when the pass last counted it, so a due date passed while every
 *   instance was down is counted at the next start, and a moved due date (which clears it) is
 *   counted again when the new one passes. Assignments still to be counted have an index of
 *   their own, so a round that finds none reads nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`alter table "user" add column "overdueCount" integer not null default 0`.execute(db);
  await sql`alter table "assignment" add column "overdueCountedAt" text`.execute(db);

  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);

  // Filled in for those who have something overdue now, and every assignment already due counted.
  const now = new Date().toISOString();
  await sql`update "user" set "overdueCount" = ${overdue(sql.ref("user.id"), sql`${now}`)}
    where "id" in (select la."learnerId" from "learner_assignment" la
      join "assignment" a on a."id" = la."assignmentId"
      where la."status" in ('not-started', 'changes-requested') and a."dueAt" < ${now})`.execute(db);
  await sql`update "assignment" set "overdueCountedAt" = ${now} where "dueAt" < ${now}`.execute(db);

  // The sort, both ways (joining time and id break ties, as every other column's sort).
  await sql`create index user_learner_overdue_idx on "user" (coalesce("role", ''), "overdueCount", "createdAt", "id")`.execute(
    db,
  );
  // The pass's question, "which assignments' due dates have passed since they were counted".
  await sql`create index assignment_overdue_pending_idx on "assignment" ("dueAt") where "overdueCountedAt" is null`.execute(
    db,
  );
}

/** The statuses of an assignment still waiting for the learner, as the review queue's overdue list names them. */
const waiting = sql.raw(`('not-started', 'changes-requested')`);

/** A learner's assignments past due at `now` (an ISO-8601 text, as `dueAt` is) and still waiting for them. */
const overdue = (id: RawBuilder<unknown> | ReturnType<typeof sql.ref>, now: RawBuilder<unknown>) =>
  sql`(select count(*) from "learner_assignment" la join "assignment" a on a."id" = la."assignmentId"
    where la."learnerId" = ${id} and la."status" in ${waiting} and a."dueAt" < ${now})`;

/** The database's clock as `dueAt` writes it ('2026-11-27T03:00:00.000Z'). */
const sqliteNow = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const postgresNow = sql`to_char(statement_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const refresh = (row: "new" | "old") =>
    sql`update "user" set "overdueCount" = ${overdue(sql.raw(`${row}."learnerId"`), sqliteNow)}
      where "id" = ${sql.raw(`${row}."learnerId"`)};`;
  // A waiting status on an assignment past due (or one deleted, whose learners' rows go with it).
  const counts = (row: "new" | "old") =>
    sql`(${sql.raw(row)}."status" in ${waiting} and coalesce((select "dueAt" from "assignment"
      where "id" = ${sql.raw(row)}."assignmentId") < ${sqliteNow}, 1))`;
  await sql`create trigger learner_assignment_overdue_insert after insert on "learner_assignment"
    when ${counts("new")} begin ${refresh("new")} end`.execute(db);
  await sql`create trigger learner_assignment_overdue_delete after delete on "learner_assignment"
    when ${counts("old")} begin ${refresh("old")} end`.execute(db);
  await sql`create trigger learner_assignment_overdue_update
    after update of "status", "learnerId", "assignmentId" on "learner_assignment"
    when ${counts("old")} or ${counts("new")} begin ${refresh("old")} ${refresh("new")} end`.execute(db);
  // A moved due date: its learners now, and the pass counts it again when the new one passes.
  await sql`create trigger assignment_overdue_due after update of "dueAt" on "assignment"
    when old."dueAt" is not new."dueAt"
    begin
      update "assignment" set "overdueCountedAt" = null where "id" = new."id";
      update "user" set "overdueCount" = ${overdue(sql.ref("user.id"), sqliteNow)}
        where "id" in (select "learnerId" from "learner_assignment" where "assignmentId" = new."id" and "status" in ${waiting});
    end`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  // Locks the learner's row first, as 0038's triggers do: the count is then read after any
  // other transaction changing this learner has committed.
  await sql`create function upskill_overdue_refresh(learner text) returns void language plpgsql
    set search_path from current as $$
    begin
      perform 1 from "user" where "id" = learner for update;
      update "user" set "overdueCount" = ${overdue(sql.raw("learner"), postgresNow)} where "id" = learner;
    end $$`.execute(db);
  // A waiting status on an assignment past due (or one deleted, whose learners' rows go with it).
  const counts = (row: "new" | "old") =>
    sql`${sql.raw(row)}."status" in ${waiting} and coalesce((select "dueAt" from "assignment"
      where "id" = ${sql.raw(row)}."assignmentId") < ${postgresNow}, true)`;
  await sql`create function upskill_learner_assignment_overdue() returns trigger language plpgsql
    set search_path from current as $$
    begin
      if TG_OP <> 'INSERT' then
        if ${counts("old")} then perform upskill_overdue_refresh(old."learnerId"); end if;
      end if;
      if TG_OP <> 'DELETE' then
        if ${counts("new")} then perform upskill_overdue_refresh(new."learnerId"); end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger overdue_insert after insert on "learner_assignment"
    for each row execute function upskill_learner_assignment_overdue()`.execute(db);
  await sql`create trigger overdue_delete after delete on "learner_assignment"
    for each row execute function upskill_learner_assignment_overdue()`.execute(db);
  await sql`create trigger overdue_update after update of "status", "learnerId", "assignmentId" on "learner_assignment"
    for each row execute function upskill_learner_assignment_overdue()`.execute(db);
  await sql`create function upskill_assignment_overdue() returns trigger language plpgsql
    set search_path from current as $$
    begin
      update "assignment" set "overdueCountedAt" = null where "id" = new."id";
      perform 1 from "user" where "id" in (select "learnerId" from "learner_assignment"
        where "assignmentId" = new."id" and "status" in ${waiting}) order by "id" for update;
      update "user" set "overdueCount" = ${overdue(sql.ref("user.id"), postgresNow)}
        where "id" in (select "learnerId" from "learner_assignment" where "assignmentId" = new."id" and "status" in ${waiting});
      return null;
    end $$`.execute(db);
  await sql`create trigger overdue_due after update of "dueAt" on "assignment"
    for each row when (old."dueAt" is distinct from new."dueAt") execute function upskill_assignment_overdue()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists assignment_overdue_pending_idx`.execute(db);
  await sql`drop index if exists user_learner_overdue_idx`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop function if exists upskill_assignment_overdue() cascade`.execute(db);
    await sql`drop function if exists upskill_learner_assignment_overdue() cascade`.execute(db);
    await sql`drop function if exists upskill_overdue_refresh(text)`.execute(db);
  } else {
    for (const trigger of ["insert", "delete", "update"]) {
      await sql.raw(`drop trigger if exists learner_assignment_overdue_${trigger}`).execute(db);
    }
    await sql`drop trigger if exists assignment_overdue_due`.execute(db);
  }
  await sql`alter table "assignment" drop column "overdueCountedAt"`.execute(db);
  await sql`alter table "user" drop column "overdueCount"`.execute(db);
}
