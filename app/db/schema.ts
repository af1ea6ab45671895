import type { MessageKind } from "../messages/kinds.ts";
import type { StaffAction } from "../staff/audit-actions.ts";
import type { ColumnType } from "kysely";

/**
 * The database as Kysely sees it. One interface per table; the migrations in ./migrations
 * create exactly these columns on SQLite and PostgreSQL.
 */

/**
 * A point in time. SQLite keeps ISO-8601 text; PostgreSQL keeps timestamptz, which `pg` reads
 * as a Date. Write ISO strings (or Dates); read with `new Date(value)`, which takes both.
 */
export type Timestamp = ColumnType<string | Date, string | Date, string | Date>;

/** A boolean: 0/1 on SQLite, true/false on PostgreSQL. Read with `Boolean(value)`. */
export type Flag = ColumnType<boolean | number, boolean, boolean>;

/** better-auth's user, with this product's fields. */
export interface UserTable {
  id: string;
  /** better-auth's display name; sign-up sets it to the username. */
  name: string;
  email: string;
  emailVerified: Flag;
  image: string | null;
  /** When the account was created (the spec's createdAt). */
  createdAt: Timestamp;
  updatedAt: Timestamp;
  username: string | null;
  phone: string | null;
  course: string | null;
  gender: string | null;
  /** Null or empty for learners; "admin" or another staff value. Set by admins and `npm run role`. */
  role: string | null;
  /** When the role last changed (ISO-8601); null if it never has. */
  roleChangedAt: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Timestamp | null;
  refreshTokenExpiresAt: Timestamp | null;
  scope: string | null;
  /** The password hash (email-and-password accounts). */
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  /** Milliseconds since the epoch (`pg` reads bigint as a string). */
  lastRequest: ColumnType<number | string, number, number>;
}

/** The app's own attempt counters (app/security/rate-limit.server.ts); better-auth keeps its own. */
export interface AppRateLimitTable {
  /** "<limit>:<subject>", such as "sign-in-email:ana@example.com". */
  key: string;
  count: number;
  /** Milliseconds since the epoch when the current window opened (`pg` reads bigints as strings). */
  windowStart: ColumnType<number | string, number, number>;
  /** When the row means nothing any more (window end), for the purge. */
  expiresAt: ColumnType<number | string, number, number>;
}

export interface AppSecretTable {
  name: string;
  value: string;
}

/** A learner's current resume; the file lives in upload storage under storageKey. */
export interface ResumeTable {
  learnerId: string;
  storageKey: string;
  /** The name the learner's file had, shown and offered as the download name. */
  fileName: string;
  size: number;
  contentType: string;
  /** ISO-8601. */
  uploadedAt: string;
}

/** A learner's profile photo: a 256×256 WebP in upload storage. */
/** A learner's unfinished resume upload (at most one). */
export interface ResumeUploadTable {
  learnerId: string;
  uploadId: string;
  /** ISO-8601. */
  createdAt: string;
}

export interface ProfilePhotoTable {
  learnerId: string;
  storageKey: string;
  updatedAt: string;
}

export interface TaskLinkTable {
  id: string;
  learnerId: string;
  link: string;
  createdAt: string;
}

/** A notice, task or certificate sent to a learner; body is sanitized HTML. */
export interface MessageTable {
  id: string;
  learnerId: string;
  kind: MessageKind;
  body: string;
  sentBy: string | null;
  sentAt: string;
  readAt: string | null;
}

export interface OfferLetterTable {
  learnerId: string;
  /** Sanitized HTML, written by an admin, read-only for the learner. */
  body: string;
  updatedBy: string | null;
  updatedAt: string;
  /** When the learner read this version (ISO-8601); null until then, and again once it is replaced. */
  readAt: string | null;
}

/** One staff action: who did what, to whom, when; written in the action's transaction. */
export interface StaffAuditTable {
  id: string;
  actorId: string | null;
  /** The actor's username (or email) at the time, kept if the account goes. */
  actorName: string;
  action: StaffAction;
  /** The message kind, or the new role for a role change. */
  detail: string | null;
  targetId: string | null;
  /** The learner's name, or for a bulk send the search and filter it matched. */
  target: string;
  count: number;
  /** ISO-8601. */
  createdAt: string;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: RateLimitTable;
  rate_limit: AppRateLimitTable;
  appSecret: AppSecretTable;
  resume: ResumeTable;
  resume_upload: ResumeUploadTable;
  profile_photo: ProfilePhotoTable;
  task_link: TaskLinkTable;
  message: MessageTable;
  offer_letter: OfferLetterTable;
  staff_audit: StaffAuditTable;
}
