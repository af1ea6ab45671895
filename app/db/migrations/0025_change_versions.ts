import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * The versions the kept signed-in answers are keyed by (decision 016): one row per key
 * ("person:<id>", "shared", "staff", "server", "outside"), its number raised in the same
 * transaction as every write that changes what a kept page shows. On PostgreSQL, a write made
 * outside the server (a connection without `upskill.writer = server`: psql, a restore) raises
 * "outside" through a statement trigger on every table (watchOutsideWrites puts them there).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("change_version")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create function upskill_outside_write() returns trigger language plpgsql
    set search_path from current as $$
    begin
      if current_setting('upskill.writer', true) is distinct from 'server' then
        insert into change_version ("key", "version") values ('outside', 1)
          on conflict ("key") do update set "version" = change_version."version" + 1;
      end if;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("change_version").ifExists().execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`drop function if exists upskill_outside_write() cascade`.execute(db);
}
