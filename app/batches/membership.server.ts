import { sql, type SqlBool } from "kysely";
import { personName } from "~/accounts/person-name";
import { assignmentLimits } from "~/assignments/assignment-rules";
import { recordAudit } from "~/core/audit.server";
import type { Deps } from "~/core/deps";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { inTransaction } from "~/core/transaction.server";
import type { Db } from "~/db/database.server";
import { batchWithTermsInForce, termsInForce } from "~/placement/batch-terms.server";
import { writeEnrolment, writeEnrolments } from "~/placement/enrolments.server";
import { staffTopic, userTopic } from "~/realtime/events";
import type { z } from "zod";
import { audienceWords, namesInWords } from "~/learners/audience";
import { filterOf } from "~/learners/learner-filter";
import { audienceNames, clockOf, matchingLearnerIds } from "~/learners/learner-filter.server";
import { staffMessages } from "~/learners/staff-messages";
import type { EventBus } from "~/realtime/bus.server";
import { batchMessages as messages, emailsIn, type enrolMatchingSchema } from "./batch-rules";

// Who is in a batch: enrolling many at once (from the workspace's selection, or from pasted
// emails after a dry run), moving one to another batch, removing one. Every change is audited.

/** A learner: a user with no role. */
export const isLearnerRow = sql<SqlBool>`coalesce("user"."role", '') = ''`;

const now = () => new Date().toISOString();

type BatchRow = NonNullable<Awaited<ReturnType<typeof batchWithTermsInForce>>>;

/** The batch and the fee terms its new agreements are drawn up from, or null for no such batch. */
async function batchWithTerms(db: Db, batchId: string) {
  const batch = await batchWithTermsInForce(db, batchId);
  if (!batch) return null;
  return { batch, terms: await termsInForce(db, batch) };
}

/**
 * Enrols learners already checked to be learners, in the caller's transaction: those already in
 * the batch are counted, not enrolled again; one audit row names who (`audience`, in words).
 */
async function enrolChecked(
  trx: Db,
  bus: EventBus,
  { batch, terms }: { batch: BatchRow; terms: Parameters<typeof writeEnrolment>[1]["terms"] },
  ids: readonly string[],
  actor: Actor,
  audience: (enrolled: readonly string[]) => Promise<string>,
) {
  const inBatch = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom("enrolment")
      .select("learnerId")
      .where("batchId", "=", batch.id)
      .where("learnerId", "in", ids.slice(i, i + 500))
      .execute();
    for (const row of rows) inBatch.add(row.learnerId);
  }
  const fresh = ids.filter((one) => !inBatch.has(one));
  await writeEnrolments(trx, { batch, terms, learnerIds: fresh, seeking: false, by: actor.name, at: now() });
  if (fresh.length > 0) {
    await recordAudit(trx, actor, {
      action: "bulk-enrol",
      detail: batch.name,
      targetId: fresh.length === 1 ? fresh[0]! : null,
      target: await audience(fresh),
      count: fresh.length,
    });
    await bus.publishMany([
      [staffTopic, { type: "placement" }],
      ...fresh.map((learnerId) => [userTopic(learnerId), { type: "assignments" }] as const),
    ]);
  }
  return {
    ok: true as const,
    message: messages.enrolled(fresh.length, inBatch.size, batch.name),
    enrolled: fresh.length,
    already: inBatch.size,
  };
}

/**
 * Enrols these learners in the batch, at most 500 at once, in one transaction with one audit row.
 * Idempotent: a learner already in the batch is counted, not enrolled again. A learner id that is
 * no learner refuses the whole request (404, with the ids in `gone`), as a bulk send does.
 */
export async function enrolLearners(
  deps: Deps,
  batchId: string,
  learnerIds: readonly string[],
  actor: Actor,
): Promise<ActionResult<{ enrolled: number; already: number }>> {
  const ids = [...new Set(learnerIds)];
  if (ids.length === 0) return { ok: false, status: 400, message: messages.selectLearners };
  if (ids.length > assignmentLimits.learnersAtOnce) return { ok: false, status: 400, message: messages.tooMany };
  const found = await batchWithTerms(deps.db, batchId);
  if (!found) return { ok: false, status: 404, message: messages.noBatch };
  return inTransaction(deps, { everyone: true }, async (trx, bus) => {
    const learners = await trx
      .selectFrom("user")
      .select(["id", "username", "name", "email"])
      .where("id", "in", ids)
      .where(isLearnerRow)
      .execute();
    if (learners.length < ids.length) {
      const present = new Set(learners.map((row) => row.id));
      const gone = ids.filter((one) => !present.has(one));
      return { ok: false as const, status: 404 as const, message: messages.gone(gone.length), gone };
    }
    const names = new Map(learners.map((row) => [row.id, personName(row)]));
    return enrolChecked(trx, bus, found, ids, actor, async (enrolled) =>
      namesInWords(enrolled.map((one) => names.get(one) ?? "").sort(), 5),
    );
  });
}

/**
 * Enrols every learner the workspace's search and filters match, read in the transaction: if
 * they are not as many as the confirmation said, nobody is enrolled and the new count comes back
 * (409); more than 500 refuse the whole request. The audit row names them in words.
 */
export async function enrolMatching(
  deps: Deps & { config: { instituteTimeZone: string } },
  actor: Actor,
  input: z.infer<typeof enrolMatchingSchema>,
): Promise<ActionResult<{ enrolled: number; already: number } | { count: number }>> {
  const found = await batchWithTerms(deps.db, input.batchId);
  if (!found) return { ok: false, status: 404, message: messages.noBatch };
  const filter = filterOf(input, actor.id);
  const clock = clockOf(deps.config);
  return inTransaction(deps, { everyone: true }, async (trx, bus) => {
    const ids = await matchingLearnerIds(trx, filter, clock);
    if (ids.length !== input.expectedCount) {
      return { ok: false as const, status: 409 as const, message: staffMessages.countChanged, count: ids.length };
    }
    if (ids.length === 0) return { ok: false as const, status: 400 as const, message: messages.noneMatching };
    if (ids.length > assignmentLimits.learnersAtOnce) {
      return { ok: false as const, status: 400 as const, message: messages.tooManyMatching(ids.length) };
    }
    const names = await audienceNames(trx, filter);
    return enrolChecked(trx, bus, found, ids, actor, async (enrolled) =>
      enrolled.length === ids.length
        ? audienceWords(filter, ids.length, names)
        : `${enrolled.length} of ${audienceWords(filter, ids.length, names)}`,
    );
  });
}

export type EnrolmentPlanRow =
  | { email: string; outcome: "enrol"; learnerId: string; name: string }
  | { email: string; outcome: "already"; learnerId: string; name: string }
  | { email: string; outcome: "unknown" | "staff" };

/** The dry run of pasted emails: what enrolling would do to each, nothing written. */
export async function planEnrolment(
  db: Db,
  input: { batchId: string; emails: string },
): Promise<ActionResult<{ plan: EnrolmentPlanRow[] }>> {
  const batch = await batchWithTermsInForce(db, input.batchId);
  if (!batch) return { ok: false, status: 404, message: messages.noBatch };
  const emails = emailsIn(input.emails);
  if (emails.length === 0) return { ok: false, status: 400, message: messages.pasteEmails };
  if (emails.length > assignmentLimits.learnersAtOnce) return { ok: false, status: 400, message: messages.tooMany };
  const users = await db
    .selectFrom("user")
    .leftJoin("enrolment", (join) =>
      join.onRef("enrolment.learnerId", "=", "user.id").on("enrolment.batchId", "=", batch.id),
    )
    .select(["user.id", "user.email", "user.username", "user.name", "user.role", "enrolment.id as enrolmentId"])
    .where(sql`lower("user"."email")`, "in", emails)
    .execute();
  const byEmail = new Map(users.map((user) => [user.email.toLowerCase(), user]));
  const plan = emails.map((email): EnrolmentPlanRow => {
    const user = byEmail.get(email);
    if (!user) return { email, outcome: "unknown" };
    if (user.role) return { email, outcome: "staff" };
    const name = personName(user);
    return user.enrolmentId
      ? { email, outcome: "already", learnerId: user.id, name }
      : { email, outcome: "enrol", learnerId: user.id, name };
  });
  const enrol = plan.filter((row) => row.outcome === "enrol").length;
  return { ok: true, message: `${enrol} of ${plan.length} can be enrolled.`, plan };
}

async function enrolmentRow(db: Db, enrolmentId: string) {
  return db
    .selectFrom("enrolment")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .innerJoin("user", "user.id", "enrolment.learnerId")
    .leftJoin("agreement", "agreement.enrolmentId", "enrolment.id")
    .select([
      "enrolment.id",
      "enrolment.batchId",
      "enrolment.learnerId",
      "enrolment.seeking",
      "batch.name as batchName",
      "agreement.acceptedAt",
      "user.username",
      "user.name",
      "user.email",
    ])
    .where("enrolment.id", "=", enrolmentId)
    .executeTakeFirst();
}

/** Takes the learner out of the batch: the enrolment, and the batch's assignments they never started. */
async function unenrol(trx: Db, enrolment: { id: string; batchId: string; learnerId: string }) {
  await trx.deleteFrom("enrolment").where("id", "=", enrolment.id).execute();
  await trx
    .deleteFrom("learner_assignment")
    .where("learnerId", "=", enrolment.learnerId)
    .where("status", "=", "not-started")
    .where("assignmentId", "in", (eb) =>
      eb.selectFrom("assignment").select("assignment.id").where("assignment.batchId", "=", enrolment.batchId),
    )
    .execute();
}

/** Removes a learner from a batch (not one who accepted its PAP agreement: their fees depend on it). */
export async function removeLearner(deps: Deps, actor: Actor, input: { enrolmentId: string }): Promise<ActionResult> {
  const enrolment = await enrolmentRow(deps.db, input.enrolmentId);
  if (!enrolment) return { ok: false, status: 404, message: messages.noEnrolment };
  if (enrolment.acceptedAt) return { ok: false, status: 409, message: messages.agreementAccepted };
  const name = personName(enrolment);
  await inTransaction(deps, { everyone: true }, async (trx, bus) => {
    await unenrol(trx, enrolment);
    await recordAudit(trx, actor, {
      action: "remove-from-batch",
      detail: enrolment.batchName,
      targetId: enrolment.learnerId,
      target: name,
      count: 1,
    });
    await bus.publishMany([
      [staffTopic, { type: "placement", learnerId: enrolment.learnerId }],
      [userTopic(enrolment.learnerId), { type: "assignments" }],
    ]);
  });
  return { ok: true, message: messages.removed(name, enrolment.batchName) };
}

/** Moves a learner to another batch: out of this one (as a removal), into that one (as an enrolment). */
export async function moveLearner(
  deps: Deps,
  actor: Actor,
  input: { enrolmentId: string; toBatchId: string },
): Promise<ActionResult> {
  const enrolment = await enrolmentRow(deps.db, input.enrolmentId);
  if (!enrolment) return { ok: false, status: 404, message: messages.noEnrolment };
  if (enrolment.acceptedAt) return { ok: false, status: 409, message: messages.agreementAccepted };
  if (enrolment.batchId === input.toBatchId) return { ok: false, status: 400, message: messages.sameBatch };
  const target = await batchWithTermsInForce(deps.db, input.toBatchId);
  if (!target) return { ok: false, status: 404, message: messages.noBatch };
  const terms = await termsInForce(deps.db, target);
  const name = personName(enrolment);
  return inTransaction(deps, { everyone: true }, async (trx, bus) => {
    const there = await trx
      .selectFrom("enrolment")
      .select("id")
      .where("batchId", "=", target.id)
      .where("learnerId", "=", enrolment.learnerId)
      .executeTakeFirst();
    if (there) return { ok: false as const, status: 409 as const, message: messages.alreadyInTarget };
    await unenrol(trx, enrolment);
    await writeEnrolment(trx, {
      batch: target,
      terms,
      learnerId: enrolment.learnerId,
      seeking: Boolean(enrolment.seeking),
      by: actor.name,
      at: now(),
    });
    await recordAudit(trx, actor, {
      action: "move-learner",
      detail: `${enrolment.batchName} → ${target.name}`,
      targetId: enrolment.learnerId,
      target: name,
      count: 1,
    });
    await bus.publishMany([
      [staffTopic, { type: "placement", learnerId: enrolment.learnerId }],
      [userTopic(enrolment.learnerId), { type: "assignments" }],
    ]);
    return { ok: true as const, message: messages.moved(name, target.name) };
  });
}
