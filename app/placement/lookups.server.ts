import type { Db } from "~/db/database.server";
import { isLearner } from "~/learners/learner-filter.server";
import { paise } from "~/core/money";

// The rows a placement change starts from, each with the learner's name for the audit log. An
// empty id finds nothing without asking the database.

export async function learnerRow(db: Db, learnerId: string) {
  if (!learnerId) return undefined;
  return db
    .selectFrom("user")
    .select(["id", "username", "name", "email"])
    .where("id", "=", learnerId)
    .where(isLearner)
    .executeTakeFirst();
}

export async function enrolmentOf(db: Db, enrolmentId: string) {
  if (!enrolmentId) return undefined;
  return db
    .selectFrom("enrolment")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .select([
      "enrolment.id",
      "enrolment.learnerId",
      "enrolment.seeking",
      "enrolment.graduation",
      "user.username",
      "user.name",
      "user.email",
    ])
    .where("enrolment.id", "=", enrolmentId)
    .executeTakeFirst();
}

export async function applicationOf(db: Db, applicationId: string) {
  if (!applicationId) return undefined;
  return db
    .selectFrom("job_application")
    .innerJoin("user", "user.id", "job_application.learnerId")
    .leftJoin("job_offer", "job_offer.applicationId", "job_application.id")
    .select([
      "job_application.id",
      "job_application.learnerId",
      "job_application.stage",
      "job_application.interviewRound",
      "job_application.company",
      "job_offer.status as offerStatus",
      "job_offer.storageKey as offerStorageKey",
      "user.username",
      "user.name",
      "user.email",
    ])
    .where("job_application.id", "=", applicationId)
    .executeTakeFirst();
}

/** An instalment with what has been paid on it so far. */
export async function instalmentOf(db: Db, instalmentId: string) {
  if (!instalmentId) return undefined;
  const row = await db
    .selectFrom("instalment")
    .innerJoin("enrolment", "enrolment.id", "instalment.enrolmentId")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .select([
      "instalment.id",
      "instalment.enrolmentId",
      "instalment.number",
      "instalment.totalPaise",
      "instalment.waivedAt",
      "enrolment.learnerId",
      "user.username",
      "user.name",
      "user.email",
    ])
    .where("instalment.id", "=", instalmentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const paid = await db
    .selectFrom("payment")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amountPaise"), eb.lit(0)).as("paid"))
    .where("instalmentId", "=", instalmentId)
    .executeTakeFirstOrThrow();
  return { ...row, totalPaise: paise(row.totalPaise), paidPaise: paise(paid.paid) };
}
