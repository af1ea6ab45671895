import { sql, type Kysely } from "kysely";

/** When a user's role last changed (the people page's "since"); null until it first does. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").addColumn("roleChangedAt", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table "user" drop column "roleChangedAt"`.execute(db);
}
