import { randomUUID } from "node:crypto";
import { personName } from "~/accounts/person-name";
import type { Actor } from "~/core/people";
import type { Deps } from "~/core/deps";
import type { z } from "zod";
import { auditBy, changerName, commitChange, fail, now, type Changer, type Result } from "./change.server";
import { applicationOf, learnerRow } from "./lookups.server";
import {
  placementMessages as messages,
  type addApplicationSchema,
  type addReferralSchema,
  type moveApplicationSchema,
} from "./placement-fields";
import { stageNames, stagesNeedingOffer, type ApplicationStage } from "./stages";

// Job applications, added by the learner or referred by staff, and their moves through the stages.

export async function addApplication(
  deps: Deps,
  changer: Changer,
  learnerId: string,
  input: z.infer<typeof addApplicationSchema>,
): Promise<Result> {
  const learner = await learnerRow(deps.db, learnerId);
  if (!learner) return fail(404, messages.notALearner);
  return commitChange(deps, {
    write: async (trx) => {
      const id = randomUUID();
      const at = now();
      await trx
        .insertInto("job_application")
        .values({
          id,
          learnerId,
          company: input.company,
          role: input.role,
          source: input.source,
          stage: "applied",
          interviewRound: 0,
          createdByName: changerName(changer),
          createdAt: at,
          updatedAt: at,
        })
        .execute();
      await trx
        .insertInto("application_stage")
        .values({
          id: randomUUID(),
          applicationId: id,
          stage: "applied",
          interviewRound: 0,
          changedByName: changerName(changer),
          changedAt: at,
        })
        .execute();
    },
    audit: auditBy(changer, {
      action: "add-referral",
      detail: `${input.company}: ${input.role}`,
      targetId: learnerId,
      target: personName(learner),
    }),
    announce: { learnerId },
    message: messages.applicationAdded,
  });
}

export function addReferral(deps: Deps, actor: Actor, input: z.infer<typeof addReferralSchema>) {
  return addApplication(deps, { kind: "staff", actor }, input.learnerId, { ...input, source: "referral" });
}

/** Moves an application to a stage; 'Interview' again is the next round. */
export async function moveApplication(
  deps: Deps,
  changer: Changer,
  input: z.infer<typeof moveApplicationSchema>,
): Promise<Result> {
  const application = await applicationOf(deps.db, input.applicationId);
  if (!application || (changer.kind === "learner" && application.learnerId !== changer.learnerId)) {
    return fail(404, messages.unknownApplication);
  }
  const stage: ApplicationStage = input.stage;
  if (stagesNeedingOffer.includes(stage) && !application.offerStatus) return fail(409, messages.needsOffer);
  // Each move to Interview is the next round; other stages keep the count.
  const round = stage === "interview" ? application.interviewRound + 1 : application.interviewRound;
  if (stage === application.stage && stage !== "interview")
    return { ok: true, message: messages.moved(stageNames[stage]) };
  return commitChange(deps, {
    write: async (trx) => {
      const at = now();
      await trx
        .updateTable("job_application")
        .set({ stage, interviewRound: round, updatedAt: at })
        .where("id", "=", application.id)
        .execute();
      await trx
        .insertInto("application_stage")
        .values({
          id: randomUUID(),
          applicationId: application.id,
          stage,
          interviewRound: round,
          changedByName: changerName(changer),
          changedAt: at,
        })
        .execute();
    },
    audit: auditBy(changer, {
      action: "move-application",
      detail: `${application.company}: ${stageNames[stage]}`,
      targetId: application.learnerId,
      target: personName(application),
    }),
    settleFeesOf: application.learnerId,
    announce: { learnerId: application.learnerId },
    message: messages.moved(stage === "interview" ? `interview round ${round}` : stageNames[stage]),
  });
}
