import type { MessageKind } from "~/messages/kinds";

/**
 * What the event stream carries. Events say what changed, never the content: the browser then
 * asks for the new state through the same endpoints (and checks) as always.
 */
export type RealtimeEvent =
  | { type: "messages"; kind: MessageKind }
  | { type: "offer-letter" }
  | { type: "resume" }
  | { type: "photo"; learnerId?: string }
  /** A learner changed their phone or course. */
  | { type: "profile"; learnerId?: string }
  | { type: "task-links"; learnerId?: string }
  | { type: "learner-signed-up"; learnerId: string }
  /** Events may have been missed (the bus reconnected): refresh everything. */
  | { type: "resync" };

/** The topic of one user's own events. */
export const userTopic = (userId: string) => `user:${userId}`;

/** Events every staff member's stream receives (new sign-ups, new task links). */
export const staffTopic = "staff";
