import { sql, type Kysely } from "kysely";

/**
 * The staff dashboard: an audit log of staff actions, and indexes for the learner search.
 * A learner is a user whose role is null or empty; the search keys on `coalesce("role", '')`
 * so one expression serves both and every index below starts with it (the same expression
 * text in query and index lets SQLite and PostgreSQL both use them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("staff_audit")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Who acted; kept (by name) when that account is deleted.
    .addColumn("actorId", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("actorName", "text", (c) => c.notNull())
    // send | bulk-send | clear | offer-letter | role-change
    .addColumn("action", "text", (c) => c.notNull())
    // notice | task | certificate for messages; the new role for a role change.
    .addColumn("detail", "text")
    // The learner acted on (null for a bulk send, which names its filter in `target`).
    .addColumn("targetId", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("target", "text", (c) => c.notNull())
    // How many learners (bulk send) or messages (clear) the action touched.
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  // The latest 200, newest first.
  await db.schema.createIndex("staff_audit_created_idx").on("staff_audit").columns(["createdAt", "id"]).execute();

  // Learners newest first (the unfiltered first page, and the search's order).
  await sql`create index user_learner_created_idx on "user" (coalesce("role", ''), "createdAt", "id")`.execute(db);
  // Learners of one course, newest first; also the distinct-course list.
  await sql`create index user_learner_course_idx on "user" (coalesce("role", ''), "course", "createdAt", "id")`.execute(
    db,
  );
  // The username search: a 'contains' match cannot seek, but scanning this narrow index
  // (instead of the table) is what keeps the count of matches fast.
  await sql`create index user_learner_username_idx on "user" (coalesce("role", ''), lower("username"), "course")`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ["user_learner_username_idx", "user_learner_course_idx", "user_learner_created_idx"]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.dropTable("staff_audit").ifExists().execute();
}
