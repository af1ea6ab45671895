import { PostgresAdapter, sql, type SqlBool } from "kysely";
import type { z } from "zod";
import { personName } from "~/accounts/person-name";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import type { ActionResult, RefusalStatus } from "~/core/result";
import type { Db } from "~/db/database.server";
import {
  certificateContent,
  documentText,
  instituteToday,
  type IssuingDeps,
} from "~/documents/document-actions.server";
import {
  batchCertificateMessages,
  documentMessages,
  type issueBatchCertificatesSchema,
} from "~/documents/document-fields";
import { createCertificateJob } from "~/documents/issue-jobs.server";
import { namesInWords } from "~/learners/audience";
import { batchMessages } from "./batch-rules";

/** A learner of the batch who has every one of its assignments accepted. */
export interface Completer {
  learnerId: string;
  name: string;
  email: string;
  /** The code of the batch's certificate they already hold (valid, not revoked); null if none. */
  certificate: string | null;
}

const isLearnerUser = sql<SqlBool>`coalesce("user"."role", '') = ''`;

/**
 * The batch's learners (enrolled, and still learners) who were given at least one of its
 * assignments and have every one of them accepted. A learner given none of them has completed
 * nothing, so does not qualify (a batch without assignments has no completers). Assignments set
 * for selected learners outside any batch do not count.
 */
export async function batchCompleters(db: Db, batchId: string): Promise<Completer[]> {
  const rows = await db
    .selectFrom("enrolment")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .select((eb) => [
      "user.id",
      "user.username",
      "user.name",
      "user.email",
      eb
        .selectFrom("document")
        .select("document.code")
        .where("document.batchId", "=", batchId)
        .whereRef("document.learnerId", "=", "user.id")
        .where("document.revokedAt", "is", null)
        .limit(1)
        .as("certificate"),
    ])
    .where("enrolment.batchId", "=", batchId)
    .where(isLearnerUser)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("learner_assignment")
          .innerJoin("assignment", "assignment.id", "learner_assignment.assignmentId")
          .select("learner_assignment.assignmentId")
          .where("assignment.batchId", "=", batchId)
          .whereRef("learner_assignment.learnerId", "=", "user.id"),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("learner_assignment")
            .innerJoin("assignment", "assignment.id", "learner_assignment.assignmentId")
            .select("learner_assignment.assignmentId")
            .where("assignment.batchId", "=", batchId)
            .whereRef("learner_assignment.learnerId", "=", "user.id")
            .where("learner_assignment.status", "<>", "accepted"),
        ),
      ),
    )
    .orderBy("user.username")
    .orderBy("user.id")
    .execute();
  return rows.map((row) => ({
    learnerId: row.id,
    name: personName(row),
    email: row.email,
    certificate: row.certificate ?? null,
  }));
}

type Input = z.infer<typeof issueBatchCertificatesSchema>;

type Outcome = { queued: number } | { refused: string; status: RefusalStatus; count?: number };

/**
 * Issues the batch's certificate to its completers who do not hold it yet, exactly those the
 * confirmation listed (`learnerIds`); if the list has changed since, nothing is issued and the
 * current list comes back. Made a job (as a certificate for several learners is), audited in the
 * same transaction; the job passes over anyone who got the certificate meanwhile, and the
 * database holds one valid certificate per learner and batch.
 */
export async function issueBatchCertificates(
  deps: IssuingDeps,
  actor: Actor,
  input: Input,
): Promise<ActionResult<{ count: number }>> {
  const made = certificateContent(input, instituteToday(deps));
  if ("refused" in made) return { ok: false, status: 400, message: made.refused };
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    const read = trx.selectFrom("batch").select(["id", "name"]).where("id", "=", input.batchId);
    // Two staff members issuing at once on PostgreSQL: the second waits here, then sees the first's job.
    const batch = await (
      trx.getExecutor().adapter instanceof PostgresAdapter ? read.forUpdate() : read
    ).executeTakeFirst();
    if (!batch) return { refused: batchMessages.noBatch, status: 404 };
    const running = await trx
      .selectFrom("document_job")
      .select("id")
      .where("batchId", "=", batch.id)
      .where("finishedAt", "is", null)
      .executeTakeFirst();
    if (running) return { refused: batchCertificateMessages.running, status: 409 };
    const completers = await batchCompleters(trx, batch.id);
    const due = completers.filter((one) => one.certificate === null);
    const dueIds = due.map((one) => one.learnerId);
    const asked = new Set(input.learnerIds);
    if (dueIds.length !== asked.size || dueIds.some((id) => !asked.has(id))) {
      return { refused: batchCertificateMessages.changed, status: 409, count: dueIds.length };
    }
    if (due.length === 0) {
      const message =
        completers.length === 0 ? batchCertificateMessages.noneQualify : batchCertificateMessages.allHaveIt;
      return { refused: message, status: 400 };
    }
    await createCertificateJob(trx, {
      content: { ...made, batchId: batch.id },
      learners: { learnerIds: dueIds },
      total: due.length,
      createdBy: actor.id,
    });
    await recordAudit(trx, actor, {
      action: "issue-certificate",
      detail: made.title,
      targetId: null,
      target: `${batch.name}: ${namesInWords(
        due.map((one) => one.name),
        5,
      )}`,
      count: due.length,
      sentText: documentText(made),
    });
    return { queued: due.length };
  });
  if ("refused" in outcome) {
    return {
      ok: false,
      status: outcome.status,
      message: outcome.refused,
      ...(outcome.count === undefined ? {} : { count: outcome.count }),
    };
  }
  deps.documentJobs.kick();
  return { ok: true, message: documentMessages.certificatesQueued(outcome.queued), count: outcome.queued };
}
