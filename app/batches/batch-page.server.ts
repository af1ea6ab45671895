import { sql } from "kysely";
import { personName } from "~/accounts/person-name";
import { requireRole } from "~/accounts/permissions.server";
import { courseChoices } from "~/catalogue/catalogue.server";
import { todayIn } from "~/core/dates";
import { idFromAddress } from "~/core/text";
import { hasSignatory } from "~/documents/settings.server";
import { getServices } from "~/platform/services.server";
import type { Db } from "~/db/database.server";
import { feeTermsLine, termsOf } from "~/placement/fee-terms";
import { termsSourceOf } from "~/placement/terms-source";
import { batchCompleters } from "./batch-certificates.server";

/** The learners a batch page lists (a batch of more is paged by the workspace's search instead). */
const listedLearners = 1_000;

/** /staff/batches/:id: the batch, its trainers and learners, and its assignments with their counts. */
export async function loadBatch(request: Request, batchId: string) {
  const user = await requireRole(request, "staff");
  const { database, config } = await getServices();
  const db = database.db;
  const id = idFromAddress(batchId);
  const batch = id
    ? await db
        .selectFrom("batch")
        .select(["id", "name", "course", "courseSlug", "schedule", "startDate", "endDate", "payment"])
        .where("id", "=", id)
        .executeTakeFirst()
    : undefined;
  if (!batch) throw new Response("No such batch.", { status: 404 });
  const [courses, staff, trainers, learners, learnerCount, otherBatches, assignments, completers, signatorySet] =
    await Promise.all([
      courseChoices(db),
      db
        .selectFrom("user")
        .select(["id", "username", "name", "email"])
        .where(sql<boolean>`coalesce("user"."role", '') <> ''`)
        .orderBy("username")
        .limit(500)
        .execute(),
      db.selectFrom("batch_trainer").select("staffId").where("batchId", "=", batch.id).execute(),
      db
        .selectFrom("enrolment")
        .innerJoin("user", "user.id", "enrolment.learnerId")
        .leftJoin("agreement", "agreement.enrolmentId", "enrolment.id")
        .select([
          "enrolment.id",
          "enrolment.learnerId",
          "user.username",
          "user.name",
          "user.email",
          "agreement.acceptedAt",
        ])
        .where("enrolment.batchId", "=", batch.id)
        .orderBy("user.username")
        .orderBy("user.id")
        .limit(listedLearners)
        .execute(),
      db
        .selectFrom("enrolment")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("batchId", "=", batch.id)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom("batch")
        .select(["id", "name"])
        .where("id", "!=", batch.id)
        .orderBy("startDate", "desc")
        .limit(500)
        .execute(),
      db
        .selectFrom("assignment")
        .select((eb) => [
          "assignment.id",
          "assignment.title",
          "assignment.dueAt",
          eb
            .selectFrom("learner_assignment")
            .select(eb.fn.countAll<number | string>().as("n"))
            .whereRef("learner_assignment.assignmentId", "=", "assignment.id")
            .as("learners"),
          eb
            .selectFrom("learner_assignment")
            .select(eb.fn.countAll<number | string>().as("n"))
            .whereRef("learner_assignment.assignmentId", "=", "assignment.id")
            .where("learner_assignment.status", "=", "accepted")
            .as("accepted"),
          eb
            .selectFrom("learner_assignment")
            .select(eb.fn.countAll<number | string>().as("n"))
            .whereRef("learner_assignment.assignmentId", "=", "assignment.id")
            .where("learner_assignment.status", "in", ["submitted", "late"])
            .as("waiting"),
        ])
        .where("assignment.batchId", "=", batch.id)
        .orderBy("assignment.dueAt", "desc")
        .limit(500)
        .execute(),
      batchCompleters(db, batch.id),
      hasSignatory(db),
    ]);
  const trainerIds = new Set(trainers.map((row) => row.staffId));
  return {
    user: { username: user.username, level: user.level },
    timeZone: config.instituteTimeZone,
    today: todayIn(config.instituteTimeZone),
    batch,
    courses,
    staff: staff.map((row) => ({ id: row.id, name: personName(row), trainer: trainerIds.has(row.id) })),
    learners: learners.map((row) => ({
      enrolmentId: row.id,
      learnerId: row.learnerId,
      name: personName(row),
      email: row.email,
      agreed: row.acceptedAt !== null,
    })),
    learnerCount: Number(learnerCount.n),
    otherBatches,
    assignments: assignments.map((row) => ({
      id: row.id,
      title: row.title,
      dueAt: row.dueAt,
      learners: Number(row.learners ?? 0),
      accepted: Number(row.accepted ?? 0),
      waiting: Number(row.waiting ?? 0),
    })),
    completers,
    signatorySet,
    feeTerms: await batchFeeTerms(db, batch.id),
  };
}

/**
 * A batch's fee terms as its page shows them: the terms in force (its own, else its course's),
 * where they come from, and (for admins' form) every set of terms.
 */
async function batchFeeTerms(db: Db, batchId: string) {
  const [row, choices] = await Promise.all([
    db
      .selectFrom("batch")
      .leftJoin("course", "course.slug", "batch.courseSlug")
      .leftJoin("fee_terms as course_terms", "course_terms.id", "course.termsId")
      .select([
        "batch.termsId as ownTermsId",
        "course.termsId as courseTermsId",
        "course_terms.name as courseTermsName",
      ])
      .where("batch.id", "=", batchId)
      .executeTakeFirstOrThrow(),
    db.selectFrom("fee_terms").select(["id", "name"]).orderBy("createdAt", "desc").limit(200).execute(),
  ]);
  const inForceId = row.ownTermsId ?? row.courseTermsId;
  const inForce = inForceId
    ? await db.selectFrom("fee_terms").selectAll().where("id", "=", inForceId).executeTakeFirst()
    : undefined;
  return {
    ownTermsId: row.ownTermsId,
    source: termsSourceOf(row.ownTermsId, row.courseTermsId ?? null),
    inForce: inForce ? { name: inForce.name, line: feeTermsLine(termsOf(inForce)) } : null,
    courseTermsName: row.courseTermsName ?? null,
    choices,
  };
}

export type BatchPageData = Awaited<ReturnType<typeof loadBatch>>;
