import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * The staff table at 100,000 learners (decision 025):
 * - Bulk writes recount each learner's figure once per statement instead of once per row: a
 *   send to 500 learners is one insert of 500 messages, whose row triggers (0038) each locked
 *   and recounted one learner and rewrote their row. On PostgreSQL the message and enrolment
 *   triggers become statement triggers over the statement's rows (its transition tables): the
 *   learners it touched are locked in one order and each recounted once.
 * - The narrow index a search's count reads gains the id, so the ids of a search's few matches
 *   are read from it alone as well (the list then reads just their rows, by id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await postgresStatementTriggers(db);
  await sql`drop index user_learner_search_idx`.execute(db);
  await sql`create index user_learner_search_idx on "user" (coalesce("role", ''), lower("username"), lower("email"), "phone", "course", "id")`.execute(
    db,
  );
}

type Ref = ReturnType<typeof sql.ref>;

/** As 0038: a learner's unread messages and unread offer letter. */
const unread = (id: Ref) =>
  sql`((select count(*) from "message" where "learnerId" = ${id} and "readAt" is null)
    + (select count(*) from "offer_letter" where "learnerId" = ${id} and "readAt" is null))`;

/** As 0038: the first of a learner's batches by name, or null. */
const firstBatch = (id: Ref) =>
  sql`(select min("batch"."name") from "enrolment" join "batch" on "batch"."id" = "enrolment"."batchId"
    where "enrolment"."learnerId" = ${id})`;

/** The tables whose writes come many rows to a statement, the figure each keeps, and which rows count. */
const bulk = [
  { table: "message", column: "unreadCount", figure: unread, counts: `"readAt" is null` },
  { table: "enrolment", column: "firstBatch", figure: firstBatch, counts: "true" },
] as const;

async function postgresStatementTriggers(db: Kysely<unknown>) {
  for (const { table, column, figure, counts } of bulk) {
    for (const op of ["insert", "delete", "update"]) {
      await sql.raw(`drop trigger if exists figures_${op} on "${table}"`).execute(db);
    }
    await sql.raw(`drop function if exists upskill_${table}_figures()`).execute(db);
    // The learners of the rows written: added or removed rows that count, or either side of an
    // update (a read mark, a move to another learner or batch).
    const learners = {
      INSERT: `select "learnerId" from new_rows where ${counts}`,
      DELETE: `select "learnerId" from old_rows where ${counts}`,
      UPDATE: `select "learnerId" from old_rows union select "learnerId" from new_rows`,
    };
    const recount = (op: keyof typeof learners) => sql`
      perform 1 from "user" where "id" in (${sql.raw(learners[op])}) order by "id" for update;
      update "user" set ${sql.ref(column)} = ${figure(sql.ref("user.id"))} where "id" in (${sql.raw(learners[op])});`;
    await sql`create function ${sql.raw(`upskill_${table}_figures_per_statement`)}() returns trigger language plpgsql
      set search_path from current as $$
      begin
        if TG_OP = 'INSERT' then ${recount("INSERT")}
        elsif TG_OP = 'DELETE' then ${recount("DELETE")}
        else ${recount("UPDATE")}
        end if;
        return null;
      end $$`.execute(db);
    const fn = sql.raw(`upskill_${table}_figures_per_statement()`);
    await sql`create trigger figures_insert after insert on ${sql.table(table)}
      referencing new table as new_rows for each statement execute function ${fn}`.execute(db);
    await sql`create trigger figures_delete after delete on ${sql.table(table)}
      referencing old table as old_rows for each statement execute function ${fn}`.execute(db);
    await sql`create trigger figures_update after update on ${sql.table(table)}
      referencing old table as old_rows new table as new_rows for each statement execute function ${fn}`.execute(db);
  }
}

/** Back to 0007's search index and 0038's row triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index user_learner_search_idx`.execute(db);
  await sql`create index user_learner_search_idx on "user" (coalesce("role", ''), lower("username"), lower("email"), "phone", "course")`.execute(
    db,
  );
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const { table, column, figure, counts } of bulk) {
    await sql.raw(`drop function if exists upskill_${table}_figures_per_statement() cascade`).execute(db);
    await sql`create function ${sql.raw(`upskill_${table}_figures`)}() returns trigger language plpgsql
      set search_path from current as $$
      declare learner text;
      begin
        foreach learner in array array[
          case when TG_OP <> 'INSERT' then old."learnerId" end,
          case when TG_OP <> 'DELETE' then new."learnerId" end]
        loop
          continue when learner is null;
          perform 1 from "user" where "id" = learner for update;
          update "user" set ${sql.ref(column)} = ${figure(sql.ref("learner"))} where "id" = learner;
        end loop;
        return null;
      end $$`.execute(db);
    const fn = sql.raw(`upskill_${table}_figures()`);
    const on = (row: "new" | "old") => sql.raw(counts.replace(/"readAt"/g, `${row}."readAt"`));
    const columns = table === "message" ? `"learnerId", "readAt"` : `"learnerId", "batchId"`;
    await sql`create trigger figures_insert after insert on ${sql.table(table)}
      for each row when (${on("new")}) execute function ${fn}`.execute(db);
    await sql`create trigger figures_delete after delete on ${sql.table(table)}
      for each row when (${on("old")}) execute function ${fn}`.execute(db);
    await sql`create trigger figures_update after update of ${sql.raw(columns)} on ${sql.table(table)}
      for each row execute function ${fn}`.execute(db);
  }
}
