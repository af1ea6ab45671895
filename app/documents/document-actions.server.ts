import type { z } from "zod";
import { personName } from "~/accounts/person-name";
import type { Db } from "~/db/database.server";
import { prepareMessageBody } from "~/messages/messages.server";
import { textFromHtml } from "~/messages/plain-text.server";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import { audienceNames, clockOf, countLearners, isLearner } from "~/learners/learner-filter.server";
import { filterOf } from "~/learners/learner-filter";
import type { ActionResult } from "~/core/result";
import { audienceWords, namesInWords } from "~/learners/audience";
import { staffMessages } from "~/learners/staff-messages";
import {
  documentMessages,
  type issueCertificateSchema,
  type issueCertificatesMatchingSchema,
  type OfferLetterFields,
} from "./document-fields";
import { issueDocuments, type DocumentContent, type DocumentDeps } from "./documents.server";
import { createCertificateJob } from "./issue-jobs.server";
import { todayIn } from "~/core/dates";

// The staff intents that issue documents (their lines are in ./staff-intents.server.ts).

type CertificateInput = Omit<z.infer<typeof issueCertificateSchema>, "learnerIds">;

/** What issuing from a staff action needs: the documents' own, and the certificate jobs' starter. */
export interface IssuingDeps extends DocumentDeps {
  documentJobs: { kick(): void };
}

/** Today in the institute: a document's issue date when none is given. */
export const instituteToday = (deps: IssuingDeps) => todayIn(deps.config.instituteTimeZone);

/** The certificate as issued: the issue date defaults to today; 'Valid until' may not come before it. */
export function certificateContent(input: CertificateInput, today: string): DocumentContent | { refused: string } {
  const issuedOn = input.issuedOn ?? today;
  if (input.validUntil && input.validUntil < issuedOn) return { refused: documentMessages.validBeforeIssue };
  return {
    kind: "certificate",
    title: input.title,
    description: input.description,
    issuedOn,
    validUntil: input.validUntil,
    hours: input.hours,
    startDate: null,
    location: null,
    pay: null,
    replyBy: null,
    body: null,
  };
}

/** A document's words as the audit log keeps them: its title, description and body, as plain text. */
export function documentText(content: DocumentContent): string {
  return [content.title, content.description, content.body === null ? null : textFromHtml(content.body)]
    .filter((part): part is string => Boolean(part?.trim()))
    .join("\n\n");
}

async function learnersByIds(db: Db, ids: string[]) {
  return db
    .selectFrom("user")
    .select(["id", "username", "name", "email"])
    .where("id", "in", ids)
    .where(isLearner)
    .orderBy("username")
    .execute();
}

/**
 * A certificate for one learner (their page, or one ticked) is made at once; for several
 * ticked learners it becomes a job (issue-jobs.server.ts). If a ticked learner is gone, nothing
 * is issued and their ids come back, as for a send to the selected.
 */
export async function issueCertificate(
  deps: IssuingDeps,
  actor: Actor,
  input: z.infer<typeof issueCertificateSchema>,
): Promise<ActionResult<{ count: number; gone?: string[] }>> {
  const today = instituteToday(deps);
  const content = certificateContent(input, today);
  if ("refused" in content) return { ok: false, status: 400, message: content.refused };
  const found = await learnersByIds(deps.db, input.learnerIds);
  if (found.length !== input.learnerIds.length) {
    const present = new Set(found.map((row) => row.id));
    const gone = input.learnerIds.filter((id) => !present.has(id));
    if (input.learnerIds.length === 1) return { ok: false, status: 404, message: staffMessages.notALearner };
    return { ok: false, status: 409, message: staffMessages.selectedGone(gone.length), gone };
  }
  if (found.length === 1) {
    const learner = found[0]!;
    const name = personName(learner);
    await issueDocuments(deps, [{ id: learner.id, name, email: learner.email }], content, actor.id, (trx) =>
      recordAudit(trx, actor, {
        action: "issue-certificate",
        detail: content.title,
        targetId: learner.id,
        target: name,
        count: 1,
        sentText: documentText(content),
      }),
    );
    return { ok: true, message: documentMessages.certificateIssued(name), count: 1 };
  }
  await deps.db.transaction().execute(async (trx) => {
    await createCertificateJob(trx, {
      content,
      learners: { learnerIds: found.map((row) => row.id) },
      total: found.length,
      createdBy: actor.id,
    });
    await recordAudit(trx, actor, {
      action: "issue-certificate",
      detail: content.title,
      targetId: null,
      target: namesInWords(found.map(personName), 5),
      count: found.length,
      sentText: documentText(content),
    });
  });
  deps.documentJobs.kick();
  return { ok: true, message: documentMessages.certificatesQueued(found.length), count: found.length };
}

/**
 * A certificate for every learner the search and course match, as many as the confirmation
 * said (otherwise nothing, and the new count comes back): a job, audited when it is made.
 */
export async function issueCertificatesToMatching(
  deps: IssuingDeps,
  actor: Actor,
  input: z.infer<typeof issueCertificatesMatchingSchema>,
): Promise<ActionResult<{ count: number }>> {
  const today = instituteToday(deps);
  const content = certificateContent(input, today);
  if ("refused" in content) return { ok: false, status: 400, message: content.refused };
  const filter = filterOf(input, actor.id);
  const clock = clockOf(deps.config);
  const outcome = await deps.db
    .transaction()
    .execute(async (trx): Promise<{ queued: number } | { changed: number }> => {
      const count = await countLearners(trx, filter, undefined, clock);
      if (count !== input.expectedCount) return { changed: count };
      if (count === 0) return { queued: 0 };
      await createCertificateJob(trx, { content, learners: { filter, clock }, total: count, createdBy: actor.id });
      await recordAudit(trx, actor, {
        action: "issue-certificate",
        detail: content.title,
        targetId: null,
        target: audienceWords(filter, count, await audienceNames(trx, filter)),
        count,
        sentText: documentText(content),
      });
      return { queued: count };
    });
  if ("changed" in outcome) {
    return { ok: false, status: 409, message: staffMessages.countChanged, count: outcome.changed };
  }
  if (outcome.queued === 0) return { ok: false, status: 400, message: "No learners match the search and filter." };
  deps.documentJobs.kick();
  return { ok: true, message: documentMessages.certificatesQueued(outcome.queued), count: outcome.queued };
}

/** An offer letter as a document (admins only; the intent table checks). */
export async function issueOfferLetter(
  deps: IssuingDeps,
  actor: Actor,
  input: OfferLetterFields,
): Promise<ActionResult> {
  const today = instituteToday(deps);
  const issuedOn = input.issuedOn ?? today;
  if (input.replyBy < issuedOn) return { ok: false, status: 400, message: documentMessages.replyByPast };
  let body: string | null = null;
  if (input.body.trim()) {
    const prepared = prepareMessageBody(input.body);
    if ("refused" in prepared) {
      const message =
        prepared.refused === "too-long"
          ? staffMessages.tooLong("offer-letter")
          : prepared.refused === "too-many-parts"
            ? staffMessages.tooManyParts("offer-letter")
            : staffMessages.offerLetterEmpty;
      return { ok: false, status: 400, message };
    }
    body = prepared.body;
  }
  const [learner] = await learnersByIds(deps.db, [input.learnerId]);
  if (!learner) return { ok: false, status: 404, message: staffMessages.notALearner };
  const name = personName(learner);
  const content: DocumentContent = {
    kind: "offer-letter",
    title: input.title,
    description: null,
    issuedOn,
    validUntil: null,
    hours: null,
    startDate: input.startDate,
    location: input.location,
    pay: { kind: input.payKind, amountPaise: input.payAmount, period: input.payPeriod },
    replyBy: input.replyBy,
    body,
  };
  await issueDocuments(deps, [{ id: learner.id, name, email: learner.email }], content, actor.id, (trx) =>
    recordAudit(trx, actor, {
      action: "issue-offer-letter",
      detail: content.title,
      targetId: learner.id,
      target: name,
      count: 1,
      sentText: documentText(content),
    }),
  );
  return { ok: true, message: documentMessages.offerIssued(name) };
}
