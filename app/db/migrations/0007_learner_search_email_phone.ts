import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * The staff search also matches email and phone. SQLite: the narrow index that a search's count
 * scans gains both, so that count still reads the index instead of the table. PostgreSQL:
 * trigram indexes for email and phone beside the username's (when pg_trgm is there, as 0006).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index user_learner_search_idx on "user" (coalesce("role", ''), lower("username"), lower("email"), "phone", "course")`.execute(
    db,
  );
  await sql`drop index user_learner_username_idx`.execute(db);
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const trigrams = await sql<{ n: number }>`select 1 as n from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (trigrams.rows.length === 0) return;
  await sql`create index user_learner_email_trgm_idx on "user" using gin (lower("email") public.gin_trgm_ops) where coalesce("role", '') = ''`.execute(
    db,
  );
  await sql`create index user_learner_phone_trgm_idx on "user" using gin ("phone" public.gin_trgm_ops) where coalesce("role", '') = ''`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists user_learner_phone_trgm_idx`.execute(db);
  await sql`drop index if exists user_learner_email_trgm_idx`.execute(db);
  await sql`create index user_learner_username_idx on "user" (coalesce("role", ''), lower("username"), "course")`.execute(
    db,
  );
  await sql`drop index user_learner_search_idx`.execute(db);
}
