import { randomUUID } from "node:crypto";
import type { Db } from "~/db/database.server";
import { decideFees, type FeeTerms } from "./fees";
import { formatRupees } from "~/core/money";
import { paise } from "~/core/money";
import { acceptedStages } from "./stages";

/**
 * Weighs the learner's first verified, accepted offer against each accepted PAP agreement not
 * yet decided: the schedule is written (or why nothing is owed), once. Runs inside the
 * transaction of whatever change could make it due: a verification, a stage move, an acceptance.
 */
export async function settleFees(trx: Db, learnerId: string): Promise<void> {
  const open = await trx
    .selectFrom("agreement")
    .innerJoin("enrolment", "enrolment.id", "agreement.enrolmentId")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .select(["agreement.enrolmentId", "agreement.terms", "batch.endDate"])
    .where("enrolment.learnerId", "=", learnerId)
    .where("agreement.acceptedAt", "is not", null)
    .where("agreement.decision", "is", null)
    .execute();
  if (open.length === 0) return;
  const offer = await trx
    .selectFrom("job_offer")
    .innerJoin("job_application", "job_application.id", "job_offer.applicationId")
    .select(["job_offer.applicationId", "job_offer.fixedCtcPaise", "job_offer.joiningDate"])
    .where("job_offer.learnerId", "=", learnerId)
    .where("job_offer.status", "=", "verified")
    .where("job_application.stage", "in", [...acceptedStages])
    .orderBy("job_offer.joiningDate")
    .orderBy("job_offer.applicationId")
    .executeTakeFirst();
  if (!offer) return;
  for (const agreement of open) {
    const terms = JSON.parse(agreement.terms) as FeeTerms;
    const decision = decideFees(
      terms,
      { fixedCtcPaise: paise(offer.fixedCtcPaise), joiningDate: offer.joiningDate },
      agreement.endDate,
    );
    await trx
      .updateTable("agreement")
      .set({
        decision: decision.owed ? "owed" : decision.reason,
        decisionText: decision.owed
          ? `${formatRupees(decision.totalPaise)} is owed (${formatRupees(decision.feePaise)} fee and ${formatRupees(decision.gstPaise)} GST), in ${decision.instalments.length} ${decision.instalments.length === 1 ? "instalment" : "instalments"}.`
          : decision.explanation,
        offerId: offer.applicationId,
      })
      .where("enrolmentId", "=", agreement.enrolmentId)
      .execute();
    if (!decision.owed) continue;
    await trx
      .insertInto("instalment")
      .values(
        decision.instalments.map((instalment) => ({
          id: randomUUID(),
          enrolmentId: agreement.enrolmentId,
          number: instalment.number,
          dueDate: instalment.dueDate,
          feePaise: instalment.feePaise,
          gstPaise: instalment.gstPaise,
          totalPaise: instalment.totalPaise,
          waivedAt: null,
          waivedByName: null,
          waiverReason: null,
        })),
      )
      .execute();
  }
}
