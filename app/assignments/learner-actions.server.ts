import { personName } from "~/accounts/person-name";
import { refuse } from "~/accounts/permissions.server";
import type { Deps } from "~/core/deps";
import type { SessionUser } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { replySchema, submitSchema } from "./assignment-rules";
import { replyToAssignment, submitAssignment } from "./submissions.server";

/** The learner's own assignment changes, by `intent`: always for the signed-in learner. */
export const learnerAssignmentIntents = ["submit-assignment", "reply-assignment"] as const;
export type LearnerAssignmentIntent = (typeof learnerAssignmentIntents)[number];

/** The learner's change, answered as the dashboard's action answers (a refusal with its status). */
export async function learnerAssignmentAction(
  deps: Deps,
  user: SessionUser,
  intent: LearnerAssignmentIntent,
  field: (name: string) => string,
) {
  const result = await runLearnerAssignmentIntent(deps, user, intent, field);
  return result.ok ? result : refuse(result.status, result.message);
}

async function runLearnerAssignmentIntent(
  deps: Deps,
  user: SessionUser,
  intent: LearnerAssignmentIntent,
  field: (name: string) => string,
): Promise<ActionResult> {
  const learner = { id: user.id, name: personName({ username: user.username, name: null, email: user.email }) };
  if (intent === "submit-assignment") {
    const parsed = submitSchema.safeParse({
      assignmentId: field("assignmentId"),
      link: field("link"),
      fileId: field("fileId"),
    });
    if (!parsed.success)
      return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? "Invalid request." };
    return submitAssignment(deps, learner, parsed.data);
  }
  const parsed = replySchema.safeParse({ assignmentId: field("assignmentId"), body: field("body") });
  if (!parsed.success)
    return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? "Invalid request." };
  return replyToAssignment(deps, learner, parsed.data);
}
