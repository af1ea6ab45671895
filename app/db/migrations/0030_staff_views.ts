import { sql, type Kysely } from "kysely";

/**
 * The staff workspace's table: when each person was last seen (written at most once every few
 * minutes per person, on a signed-in request), and the views staff save (a name and the
 * workspace's address query: filters, sort and page size), each staff member's own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").addColumn("lastActiveAt", "text").execute();
  // Learners by last activity (the sort, and 'not active for N days'); never seen sorts as ''.
  await sql`create index user_learner_active_idx on "user" (coalesce("role", ''), coalesce("lastActiveAt", ''), "id")`.execute(
    db,
  );

  await db.schema
    .createTable("saved_view")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("ownerId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    // The workspace's query string, without page and open learner.
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addUniqueConstraint("saved_view_owner_name_unique", ["ownerId", "name"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("saved_view").ifExists().execute();
  await db.schema.dropIndex("user_learner_active_idx").ifExists().execute();
  await db.schema.alterTable("user").dropColumn("lastActiveAt").execute();
}
