/** What a signed-in user may do: the one reading of the `role` column. */
export type AccessLevel = "learner" | "staff" | "admin";

/** Empty or missing is a learner, "admin" an admin, any other value staff. */
export function accessLevel(role: string | null | undefined): AccessLevel {
  if (!role) return "learner";
  return role === "admin" ? "admin" : "staff";
}

const rank: Record<AccessLevel, number> = { learner: 0, staff: 1, admin: 2 };

/** Does this level include what `need` allows (admins may do everything staff may)? */
export function hasAccess(level: AccessLevel, need: AccessLevel): boolean {
  return rank[level] >= rank[need];
}

/** What a refused person is told. */
export const accessMessages = {
  signInRequired: "Please log in.",
  noAccessPage: "You do not have access to this page.",
  staffOnly: "Only staff can do this.",
  adminOnly: "Only an admin can do this.",
  foreignOrigin: "This request came from another site and was refused.",
} as const;
