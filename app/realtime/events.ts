import type { DocumentKind } from "~/documents/kinds";
import type { MessageKind } from "~/messages/kinds";

/**
 * What the event stream carries. Events say what changed, never the content: the browser then
 * asks for the new state through the same endpoints (and checks) as always.
 */
export type RealtimeEvent =
  | { type: "messages"; kind: MessageKind }
  | { type: "offer-letter" }
  /** A certificate or offer letter was issued to this learner, or (to staff) a learner answered an offer. */
  | { type: "documents"; kind: DocumentKind; learnerId?: string }
  | { type: "resume" }
  | { type: "photo"; learnerId?: string }
  /** A learner changed their phone or course. */
  | { type: "profile"; learnerId?: string }
  | { type: "task-links"; learnerId?: string }
  | { type: "learner-signed-up"; learnerId: string }
  /** Emails were queued: mail workers on every instance look for them. */
  | { type: "mail-queued" }
  /** An admin's import created or changed learners (the staff lists refresh). */
  | { type: "learners-imported"; count: number }
  /** Another request wants this upload: its holder lets go (app/uploads/upload-locks.server.ts). */
  | { type: "upload-lock-wanted" }
  /**
   * Placement records changed: batches, enrolments, applications, offers or fees; `consentOnly`
   * when only a learner's consent to be named changed (no count or figure moves).
   */
  | { type: "placement"; learnerId?: string; consentOnly?: true }
  /** Assignments changed: one was set, submitted, reviewed or replied to (to staff: whose). */
  | { type: "assignments"; learnerId?: string }
  /** An enquiry arrived or staff changed one (the inbox and the header's count refresh). */
  | { type: "enquiries" }
  /** What the public pages show changed (testimonials, partners, page text): caches rebuild them. */
  | { type: "public-site-changed" }
  /** Events may have been missed (the bus reconnected): refresh everything. */
  | { type: "resync" };

/** The topic of one user's own events. */
export const userTopic = (userId: string) => `user:${userId}`;

/** The topic of the lock on one unfinished upload. */
export const uploadLockTopic = (uploadId: string) => `upload-lock:${uploadId}`;

/** The mail workers' topic. */
export const mailTopic = "mail";

/** Every instance's anonymous page cache listens here. */
export const publicSiteTopic = "public-site";

/** Events every staff member's stream receives (new sign-ups, new task links). */
export const staffTopic = "staff";

/** Streams one user may hold open on one instance: a few per tab is plenty. */
export const maxStreamsPerUser = 10;
