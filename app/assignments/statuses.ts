// The words of the learning loop that the database schema names too (a leaf: imports nothing).

/** What a learner hands in for an assignment. */
export const handInKinds = ["link", "file", "both"] as const;
export type HandIn = (typeof handInKinds)[number];

/** One learner's assignment has exactly one of these. */
export const assignmentStatuses = ["not-started", "submitted", "late", "changes-requested", "accepted"] as const;
export type AssignmentStatus = (typeof assignmentStatuses)[number];

export const statusLabels: Record<AssignmentStatus, string> = {
  "not-started": "Not started",
  submitted: "Submitted",
  late: "Submitted late",
  "changes-requested": "Changes requested",
  accepted: "Accepted",
};

export const handInLabels: Record<HandIn, string> = {
  link: "A link",
  file: "A file",
  both: "A link and a file",
};

/**
 * Waiting for the learner: never handed in, or sent back for changes. Past its due date, such an
 * assignment is overdue (the review queue's overdue list, the staff table's column).
 */
export const overdueStatuses: readonly AssignmentStatus[] = ["not-started", "changes-requested"];

/** Waiting for a trainer: what the review queue lists. */
export const waitingStatuses: readonly AssignmentStatus[] = ["submitted", "late"];
