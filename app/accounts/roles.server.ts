import type { Db } from "../db/database.server";

// Relative imports only: scripts/role.ts loads this file under plain Node.

export type RoleChange =
  | { status: "changed"; email: string; username: string | null; from: string | null; to: string | null }
  | { status: "unchanged"; email: string; username: string | null; role: string | null }
  | { status: "unknown-email"; email: string };

/** What `none` means on the command line: no role (a learner). */
export const NO_ROLE = "none";

/** A role value as typed: trimmed; `none` (any case) clears it. Throws on an unusable value. */
export function parseRoleArgument(value: string): string | null {
  const role = value.trim();
  if (role.toLowerCase() === NO_ROLE) return null;
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(role)) {
    throw new Error(`"${value}" is not a usable role: use letters, digits, - or _ (up to 40), or "none" to clear it.`);
  }
  return role;
}

/** Sets (or, with null, clears) the role of the account with this email. */
export async function setRole(db: Db, emailArgument: string, role: string | null): Promise<RoleChange> {
  const email = emailArgument.trim().toLowerCase();
  const user = await db
    .selectFrom("user")
    .select(["id", "email", "username", "role"])
    .where("email", "=", email)
    .executeTakeFirst();
  if (!user) return { status: "unknown-email", email };
  const from = user.role ? user.role : null;
  if (from === role) return { status: "unchanged", email: user.email, username: user.username, role };
  const now = new Date().toISOString();
  await db.updateTable("user").set({ role, roleChangedAt: now, updatedAt: now }).where("id", "=", user.id).execute();
  return { status: "changed", email: user.email, username: user.username, from, to: role };
}

/** The line the role command prints. */
export function describeRoleChange(change: RoleChange): string {
  const shown = (role: string | null) => role ?? "none (learner)";
  switch (change.status) {
    case "unknown-email":
      return `No account has the email ${change.email}. Check the spelling, or sign up first.`;
    case "unchanged":
      return `${change.email} already has the role ${shown(change.role)}: nothing changed.`;
    case "changed":
      return `${change.email}${change.username ? ` (${change.username})` : ""}: role ${shown(change.from)} -> ${shown(change.to)}.`;
  }
}
