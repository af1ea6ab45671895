import type { ReadableKind } from "~/messages/kinds";

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
  /** The learner's course, shown by the greeting (changed on /settings). */
  course: string;
}
