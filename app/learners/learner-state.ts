import type { EmailPreferences } from "~/mail/email-kinds";
import type { ReadableKind } from "~/messages/kinds";
import type { EditableProfile } from "~/accounts/sign-up-schema";

/** The learner dashboard's data: what the dashboard's loader reads for the signed-in learner. */
export interface LearnerState {
  username: string;
  /** Day N: whole days since sign-up plus 1, in the institute's time zone. */
  day: number;
  photoUrl: string | null;
  /** Unread items per kind: the badges on the popup buttons. */
  unread: Record<ReadableKind, number>;
  resume: { fileName: string; size: number; contentType: string; uploadedAt: string } | null;
  taskLinks: { id: string; link: string; createdAt: string }[];
  /** The institute's time zone: dates are shown in it, the same on the server and in the browser. */
  timeZone: string;
  /** RESUME_MAX_MB, for the picker's early message (the server checks again). */
  resumeMaxMb: number;
  /** What the learner changes themselves (their profile card), and the course shown by the greeting. */
  profile: EditableProfile;
  /** The courses the profile's select offers: the sign-up options, and the learner's own if it left them. */
  courseOptions: string[];
  /** Which emails the learner gets, per kind. */
  emailPreferences: EmailPreferences;
  /** DIGEST_HOUR: when the daily digest goes out, in the institute's time zone. */
  digestHour: number;
}
