import type { Deps } from "~/core/deps";
import { intent } from "~/core/intent";
import { createAssignmentSchema, previewInstructionsSchema, reviewSchema } from "./assignment-rules";
import { createAssignment, prepareInstructions, type AssignmentDeps } from "./assignments.server";
import { reviewSubmission } from "./reviews.server";

/** Assignments' staff actions, by the `intent` their forms send (the staff gate combines the tables). */
export const assignmentIntents = {
  "create-assignment": intent({
    need: "staff",
    fields: createAssignmentSchema,
    run: (deps: AssignmentDeps, actor, input) => createAssignment(deps, actor, input),
  }),
  "preview-instructions": intent({
    need: "staff",
    fields: previewInstructionsSchema,
    run: async (_deps: Deps, _actor, input) => {
      const prepared = prepareInstructions(input.instructions);
      if ("refusal" in prepared) return { ok: false, status: 400, message: prepared.refusal };
      return { ok: true, message: "", html: prepared.html };
    },
  }),
  "review-submission": intent({ need: "staff", fields: reviewSchema, run: reviewSubmission }),
};
