import { sql, type SqlBool } from "kysely";
import type { Db } from "~/db/database.server";
import { nameOrEmailContains } from "~/learners/learner-filter.server";
import type { Person } from "./staff-types";

/** The most people the page lists at once (staff are few; a search narrows the rest). */
const peopleLimit = 500;

/** Everyone with a role, by role then name, whose name or email contains the search. */
export async function listPeople(db: Db, search: string): Promise<Person[]> {
  let query = db
    .selectFrom("user")
    .select(["id", "name", "username", "email", "role", "roleChangedAt", "createdAt"])
    .where(sql<SqlBool>`coalesce("user"."role", '') <> ''`)
    .orderBy("role")
    .orderBy("username")
    .orderBy("id")
    .limit(peopleLimit);
  const text = search.trim();
  if (text) query = query.where((eb) => nameOrEmailContains(eb, text));
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.username || r.name,
    email: r.email,
    role: r.role ?? "",
    since: new Date(r.roleChangedAt ?? r.createdAt).toISOString(),
  }));
}

/**
 * The role names in use, in order. A loose index scan (one seek per role on the index that
 * leads with the role), so it stays cheap however many learners there are.
 */
export async function rolesInUse(db: Db): Promise<string[]> {
  const result = await sql<{ role: string | null }>`
    with recursive roles(role) as (
      select min(coalesce("role", '')) from "user" where coalesce("role", '') > ''
      union all
      select (select min(coalesce("role", '')) from "user" where coalesce("role", '') > roles.role)
      from roles where roles.role is not null
    )
    select role from roles where role is not null`.execute(db);
  return result.rows.map((r) => r.role).filter((role): role is string => role !== null);
}
