import { formatDocumentDate } from "~/documents/words";
import type { LearnerPlacement } from "./learner-placement.server";

// What the components showing one learner's placement records share.

export type Enrolment = LearnerPlacement["enrolments"][number];
export type Application = LearnerPlacement["applications"][number];

/** Who is looking: the learner on their own page, or staff (admins may also waive). */
export type Viewer = "learner" | "staff" | "admin";

export const day = (date: string) => (date ? formatDocumentDate(date.slice(0, 10)) : "");
