import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * The staff table's per-learner figures as columns on the learner's row (decision 019): whether
 * they have a resume, how many things they have not opened (messages and the offer letter), and
 * the first of their batches by name. Sorting or filtering on them was a subquery per learner;
 * as columns, each sort reads an index in order and stops after a page.
 *
 * Triggers keep them, in the transaction of every write to the tables they come from, whoever
 * writes (the server, an import, psql). Each trigger works the learner's figure out again from
 * those tables rather than adding or subtracting, so a figure cannot drift; on PostgreSQL it
 * first locks the learner's row, so two transactions changing one learner's messages or batches
 * at once each count the other's committed rows. Existing rows are filled in here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table "user" add column "hasResume" integer not null default 0`.execute(db);
  await sql`alter table "user" add column "unreadCount" integer not null default 0`.execute(db);
  await sql`alter table "user" add column "firstBatch" text`.execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) await postgresTriggers(db);
  else await sqliteTriggers(db);

  // Filled in only for those who have something (everyone else has the defaults).
  await sql`update "user" set "hasResume" = 1 where "id" in (select "learnerId" from "resume")`.execute(db);
  await sql`update "user" set "unreadCount" = ${unread(sql.ref("user.id"))}
    where "id" in (select "learnerId" from "message" where "readAt" is null
      union select "learnerId" from "offer_letter" where "readAt" is null)`.execute(db);
  await sql`update "user" set "firstBatch" = ${firstBatch(sql.ref("user.id"))}
    where "id" in (select "learnerId" from "enrolment")`.execute(db);

  // Each sort reads one index in order, with the joining time and the id as tie-breaks (the
  // order the list had before). Learners in no batch come last both ways: one index each way.
  const learner = `coalesce("role", '')`;
  for (const statement of [
    `create index user_learner_name_idx on "user" (${learner}, lower("username"), "id")`,
    `create index user_learner_resume_idx on "user" (${learner}, "hasResume", "createdAt", "id")`,
    `create index user_learner_unread_idx on "user" (${learner}, "unreadCount", "createdAt", "id")`,
    `create index user_learner_batch_idx on "user" (${learner}, ("firstBatch" is null), "firstBatch", "createdAt", "id")`,
    `create index user_learner_batch_desc_idx on "user" (${learner}, ("firstBatch" is null), "firstBatch" desc, "createdAt" desc, "id" desc)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

type Ref = ReturnType<typeof sql.ref>;

/** A learner's unread messages and unread offer letter (0 or 1), added up. */
const unread = (id: Ref | ReturnType<typeof sql.raw>) =>
  sql`((select count(*) from "message" where "learnerId" = ${id} and "readAt" is null)
    + (select count(*) from "offer_letter" where "learnerId" = ${id} and "readAt" is null))`;

/** The first of a learner's batches by name, or null. */
const firstBatch = (id: Ref | ReturnType<typeof sql.raw>) =>
  sql`(select min("batch"."name") from "enrolment" join "batch" on "batch"."id" = "enrolment"."batchId"
    where "enrolment"."learnerId" = ${id})`;

const hasResume = (id: Ref | ReturnType<typeof sql.raw>) =>
  sql`(case when exists (select 1 from "resume" where "learnerId" = ${id}) then 1 else 0 end)`;

/** Which of a table's writes change a figure, and the figure's column. */
const watched = [
  { table: "message", column: "unreadCount", figure: unread, when: `"readAt" is null`, columns: `"readAt"` },
  { table: "offer_letter", column: "unreadCount", figure: unread, when: `"readAt" is null`, columns: `"readAt"` },
  { table: "resume", column: "hasResume", figure: hasResume, when: "1 = 1", columns: "" },
  { table: "enrolment", column: "firstBatch", figure: firstBatch, when: "1 = 1", columns: `"batchId"` },
] as const;

async function sqliteTriggers(db: Kysely<unknown>) {
  for (const { table, column, figure, when, columns } of watched) {
    const refresh = (row: "new" | "old") =>
      sql`update "user" set ${sql.ref(column)} = ${figure(sql.raw(`${row}."learnerId"`))} where "id" = ${sql.raw(`${row}."learnerId"`)};`;
    const on = (row: "new" | "old") => sql.raw(when.replace(/"readAt"/g, `${row}."readAt"`));
    await sql`create trigger ${sql.raw(`${table}_figures_insert`)} after insert on ${sql.table(table)}
      when ${on("new")} begin ${refresh("new")} end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_figures_delete`)} after delete on ${sql.table(table)}
      when ${on("old")} begin ${refresh("old")} end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_figures_update`)}
      after update of ${sql.raw(['"learnerId"', columns].filter(Boolean).join(", "))} on ${sql.table(table)}
      begin ${refresh("old")} ${refresh("new")} end`.execute(db);
  }
  // A batch's new name can change which of its learners' batches comes first.
  await sql`create trigger batch_figures_rename after update of "name" on "batch"
    begin update "user" set "firstBatch" = ${firstBatch(sql.ref("user.id"))}
      where "id" in (select "learnerId" from "enrolment" where "batchId" = new."id"); end`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  for (const { table, column, figure } of watched) {
    // Locks the learner's row first: the figure is then read after any other transaction
    // changing this learner has committed (each statement of a function reads afresh).
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
          update "user" set ${sql.ref(column)} = ${figure(sql.raw("learner"))} where "id" = learner;
        end loop;
        return null;
      end $$`.execute(db);
  }
  for (const { table, when, columns } of watched) {
    const fn = sql.raw(`upskill_${table}_figures()`);
    const on = (row: "new" | "old") => sql.raw(when.replace(/"readAt"/g, `${row}."readAt"`));
    await sql`create trigger figures_insert after insert on ${sql.table(table)}
      for each row when (${on("new")}) execute function ${fn}`.execute(db);
    await sql`create trigger figures_delete after delete on ${sql.table(table)}
      for each row when (${on("old")}) execute function ${fn}`.execute(db);
    await sql`create trigger figures_update
      after update of ${sql.raw(['"learnerId"', columns].filter(Boolean).join(", "))} on ${sql.table(table)}
      for each row execute function ${fn}`.execute(db);
  }
  await sql`create function upskill_batch_figures() returns trigger language plpgsql
    set search_path from current as $$
    begin
      perform 1 from "user" where "id" in (select "learnerId" from "enrolment" where "batchId" = new."id")
        order by "id" for update;
      update "user" set "firstBatch" = ${firstBatch(sql.ref("user.id"))}
        where "id" in (select "learnerId" from "enrolment" where "batchId" = new."id");
      return null;
    end $$`.execute(db);
  await sql`create trigger figures_rename after update of "name" on "batch"
    for each row when (old."name" is distinct from new."name") execute function upskill_batch_figures()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ["name", "resume", "unread", "batch", "batch_desc"]) {
    await sql.raw(`drop index if exists user_learner_${index}_idx`).execute(db);
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of ["message", "offer_letter", "resume", "enrolment", "batch"]) {
      await sql.raw(`drop function if exists upskill_${table}_figures() cascade`).execute(db);
    }
  } else {
    for (const { table } of watched) {
      for (const op of ["insert", "delete", "update"]) {
        await sql.raw(`drop trigger if exists ${table}_figures_${op}`).execute(db);
      }
    }
    await sql`drop trigger if exists batch_figures_rename`.execute(db);
  }
  for (const column of ["firstBatch", "unreadCount", "hasResume"]) {
    await sql`alter table "user" drop column ${sql.ref(column)}`.execute(db);
  }
}
