import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * On PostgreSQL, a trigram index for the staff search ("username contains …"): without it every
 * search with a count scans all learners. pg_trgm ships with PostgreSQL and is a trusted
 * extension, but a server may lack it or refuse it; then this does nothing and the search
 * keeps working by scanning. The extension goes into `public` so that every schema using this
 * database shares it (dropping one schema must not drop it). SQLite has no such index; its scan
 * of the narrow username index is fast enough there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`savepoint trigrams`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  } catch {
    await sql`rollback to savepoint trigrams`.execute(db);
    return;
  }
  await sql`release savepoint trigrams`.execute(db);
  // Partial, with the learner condition spelled as the search spells it, so the planner uses it.
  await sql`create index user_learner_username_trgm_idx on "user" using gin (lower("username") public.gin_trgm_ops) where coalesce("role", '') = ''`.execute(
    db,
  );
}
