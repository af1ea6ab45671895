import { editableProfileFieldNames, type EditableProfile } from "~/accounts/sign-up-schema";
import type { AccessLevel } from "./access";

/** The signed-in user as every loader, action and resource route sees them. */
export interface SessionUser {
  id: string;
  /** The session this request came with (live streams end with it). */
  sessionId: string;
  username: string;
  email: string;
  /** The stored role: null for learners. Read `level`, not this, to decide access. */
  role: string | null;
  level: AccessLevel;
  /** When the account was created (ISO-8601). */
  createdAt: string;
  /** The profile fields the learner edits on their dashboard ("" when not set). */
  profile: EditableProfile;
}

/**
 * The user's columns a session is read with (the gate's own read, and on PostgreSQL each
 * kept-answer stamp: DatabaseHandle.keptAnswerStamp), besides the session's id and end.
 */
export const sessionUserColumns = [
  "id",
  "name",
  "username",
  "email",
  "role",
  "createdAt",
  "lastActiveAt",
  ...editableProfileFieldNames,
] as const;

/** Who made a change, as the audit log records them. */
export interface Actor {
  id: string;
  /** Shown in the audit log: the username, else the email. */
  name: string;
  role: string;
}

/** The signed-in staff member as the audit log names them. */
export function actorOf(user: SessionUser): Actor {
  return { id: user.id, name: user.username || user.email, role: user.role ?? "" };
}
