import { createHash } from "node:crypto";
import { touch } from "~/core/transaction.server";
import { personName } from "~/accounts/person-name";
import type { Db } from "~/db/database.server";
import type { Selectable, Updateable } from "kysely";
import type { DocumentTable } from "~/db/schema";
import { prepareMessageBody } from "~/messages/messages.server";
import { staffTopic, userTopic } from "~/realtime/events";
import { recordAudit } from "~/core/audit.server";
import type { Actor } from "~/core/people";
import type { ActionResult } from "~/core/result";
import { staffMessages } from "~/learners/staff-messages";
import { newStorageKey } from "~/uploads/storage.server";
import { verifyUrl } from "./code";
import { correctionMessages, type CertificateCorrection, type OfferLetterCorrection } from "./correction-fields";
import { documentMessages } from "./document-fields";
import { pdfIssuer, type DocumentDeps } from "./documents.server";
import type { DocumentKind } from "./kinds";
import { openBadgeCredential } from "./open-badge.server";
import { renderDocumentPdf } from "./pdf.server";
import { signDocumentClaims } from "./signing.server";
import { readDocumentSettings } from "./settings.server";
import { paragraphsFromHtml } from "~/messages/plain-text.server";

type CorrectionDeps = Pick<DocumentDeps, "db" | "bus" | "storage" | "logger" | "config">;

/** The holder's tabs and every staff view show the document's new state. */
async function announce(deps: Pick<DocumentDeps, "bus">, learnerId: string, kind: DocumentKind): Promise<void> {
  await Promise.all([
    deps.bus.publish(userTopic(learnerId), { type: "documents", kind }),
    deps.bus.publish(staffTopic, { type: "documents", kind, learnerId }),
  ]);
}

/** The document, if it is this learner's, with the learner's name for the audit log. */
async function documentOf(db: Db, learnerId: string, documentId: string) {
  const row = await db
    .selectFrom("document")
    .innerJoin("user", "user.id", "document.learnerId")
    .selectAll("document")
    .select(["user.username", "user.name", "user.email"])
    .where("document.id", "=", documentId)
    .where("document.learnerId", "=", learnerId)
    .executeTakeFirst();
  if (!row) return null;
  const { username, name, email, ...document } = row;
  return { document, learnerName: personName({ username, name, email }) };
}

/**
 * Revokes a document (admin only; the caller checks): its verify page says Revoked, with the
 * reason and the day, from the next request on, on every instance. Audited in the same
 * transaction; the holder's tabs hear of it after the commit.
 */
export async function revokeDocument(
  deps: Pick<DocumentDeps, "db" | "bus">,
  actor: Actor,
  input: { learnerId: string; documentId: string; reason: string },
): Promise<ActionResult> {
  const outcome = await deps.db.transaction().execute(async (trx) => {
    await touch(trx, { people: [input.learnerId] });
    const found = await documentOf(trx, input.learnerId, input.documentId);
    if (!found) return "gone" as const;
    const now = new Date().toISOString();
    // `revokedAt is null` here too: of two revocations at once, only the first changes the row.
    const result = await trx
      .updateTable("document")
      .set({ revokedAt: now, revokeReason: input.reason, revokedBy: actor.id, updatedAt: now })
      .where("id", "=", found.document.id)
      .where("revokedAt", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return "already" as const;
    await recordAudit(trx, actor, {
      action: "revoke-document",
      detail: found.document.code,
      targetId: input.learnerId,
      target: found.learnerName,
      count: 1,
    });
    return found.document;
  });
  if (outcome === "gone") return { ok: false, status: 404, message: correctionMessages.gone };
  if (outcome === "already") return { ok: false, status: 409, message: correctionMessages.alreadyRevoked };
  await announce(deps, input.learnerId, outcome.kind);
  return { ok: true, message: correctionMessages.revoked(outcome.code) };
}

type Correction = CertificateCorrection | OfferLetterCorrection;

/** The document's fields as corrected, or a refusal of the offer letter's body. */
type DocumentRow = Selectable<DocumentTable>;
type Corrected = Updateable<DocumentTable> & Pick<DocumentRow, "holderName" | "title" | "issuedOn">;

function corrected(document: DocumentRow, input: Correction): Corrected | { refused: string } {
  // An empty issue date keeps the one issued (the schema checked the dates only when both were typed).
  const issuedOn = input.issuedOn ?? document.issuedOn;
  const common = { holderName: input.holderName, title: input.title, issuedOn };
  if (document.kind === "certificate") {
    const fields = input as CertificateCorrection;
    if (fields.validUntil && fields.validUntil < issuedOn) return { refused: documentMessages.validBeforeIssue };
    return { ...common, description: fields.description, validUntil: fields.validUntil, hours: fields.hours };
  }
  const fields = input as OfferLetterCorrection;
  if (fields.replyBy < issuedOn) return { refused: documentMessages.replyByPast };
  const body = fields.body.trim() === "" ? { body: "" } : prepareMessageBody(fields.body);
  if ("refused" in body) {
    const refusals = {
      empty: staffMessages.offerLetterEmpty,
      "too-long": staffMessages.tooLong("offer-letter"),
      "too-many-parts": staffMessages.tooManyParts("offer-letter"),
    };
    return { refused: refusals[body.refused] };
  }
  return {
    ...common,
    startDate: fields.startDate,
    location: fields.location,
    payKind: fields.payKind,
    payAmountPaise: fields.payAmount,
    payPeriod: fields.payPeriod,
    replyBy: fields.replyBy,
    body: body.body || null,
  };
}

const comparedFields = [
  "holderName",
  "title",
  "description",
  "issuedOn",
  "validUntil",
  "hours",
  "startDate",
  "location",
  "payKind",
  "payAmountPaise",
  "payPeriod",
  "replyBy",
  "body",
] as const;

function changes(document: DocumentRow, fields: Corrected): boolean {
  return comparedFields.some((name) => {
    if (!(name in fields)) return false;
    const before = document[name];
    const after = fields[name];
    // pg reads bigint as a string.
    return (before === null ? null : String(before)) !== (after === null || after === undefined ? null : String(after));
  });
}

/**
 * Reissues a document with corrected fields (admin only; the caller checks): a new PDF made the
 * way issuing makes one, under the same code (so the printed QR code and the verify address
 * stay), stored under a new key; the row then records the new fields, the new SHA-256 and when
 * it was reissued, with its audit entry, in one transaction that first checks nobody changed
 * the document since it was read. The old PDF is deleted after the commit (the new one if the
 * transaction failed). A revoked document is not reissued: revoking is final.
 */
export async function reissueDocument(deps: CorrectionDeps, actor: Actor, input: Correction): Promise<ActionResult> {
  const found = await documentOf(deps.db, input.learnerId, input.documentId);
  if (!found) return { ok: false, status: 404, message: correctionMessages.gone };
  const { document } = found;
  if (document.revokedAt) return { ok: false, status: 409, message: correctionMessages.revokedNoReissue };
  if ("payKind" in input !== (document.kind === "offer-letter")) {
    return { ok: false, status: 400, message: "Those are not this document's fields." };
  }
  const fields = corrected(document, input);
  if ("refused" in fields) return { ok: false, status: 400, message: fields.refused };
  if (!changes(document, fields)) return { ok: false, status: 400, message: correctionMessages.unchanged };
  const next = { ...document, ...fields };

  const settings = await readDocumentSettings(deps.db, deps.storage);
  // The signed claims name the corrected fields, under the issuer the document was issued by.
  const jws = await signDocumentClaims(deps.db, {
    code: next.code,
    kind: next.kind,
    holder: next.holderName,
    title: next.title,
    issuedOn: next.issuedOn,
    validUntil: next.validUntil,
    issuer: next.issuerUrl,
  });
  const pdf = await renderDocumentPdf({
    kind: next.kind,
    code: next.code,
    holderName: next.holderName,
    title: next.title,
    description: next.description,
    issuedOn: next.issuedOn,
    validUntil: next.validUntil,
    hours: next.hours === null ? null : Number(next.hours),
    startDate: next.startDate,
    location: next.location,
    pay:
      next.payKind && next.payAmountPaise !== null && next.payPeriod
        ? { kind: next.payKind, amountPaise: Number(next.payAmountPaise), period: next.payPeriod }
        : null,
    replyBy: next.replyBy,
    paragraphs: next.body ? paragraphsFromHtml(next.body) : [],
    // Today's letterhead, under the name the document was issued by (its Open Badge and the
    // verify page name that issuer).
    issuer: { ...(await pdfIssuer(deps.db, deps.config.site)), name: next.issuerName },
    // Signed as issued. The signature image is today's only if the same person signs today:
    // nobody's signature goes under another's name.
    signatory:
      next.signatoryName && next.signatoryTitle
        ? {
            name: next.signatoryName,
            title: next.signatoryTitle,
            image: settings.signatoryName === next.signatoryName ? settings.signatureImage : null,
          }
        : null,
    verifyUrl: verifyUrl(deps.config.appUrl, next.code, jws),
  });
  // A certificate's Open Badge is signed again with the corrected fields, as its PDF is made.
  const credential =
    next.kind === "certificate"
      ? JSON.stringify(
          await openBadgeCredential(
            deps.db,
            {
              ...next,
              hours: next.hours === null ? null : Number(next.hours),
              statusIndex: Number(next.statusIndex),
            },
            { verifyUrl: verifyUrl(next.issuerUrl, next.code), timeZone: deps.config.instituteTimeZone },
          ),
        )
      : null;
  const storageKey = newStorageKey("documents", ".pdf");
  await deps.storage.put(storageKey, pdf);
  const now = new Date().toISOString();
  let updated: boolean;
  try {
    updated = await deps.db.transaction().execute(async (trx) => {
      await touch(trx, { people: [input.learnerId] });
      const result = await trx
        .updateTable("document")
        .set({
          ...fields,
          storageKey,
          sha256: createHash("sha256").update(pdf).digest("hex"),
          jws,
          credential,
          reissuedAt: now,
          updatedAt: now,
        })
        .where("id", "=", document.id)
        .where("updatedAt", "=", document.updatedAt)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await recordAudit(trx, actor, {
        action: "reissue-document",
        detail: document.code,
        targetId: input.learnerId,
        target: found.learnerName,
        count: 1,
      });
      return true;
    });
  } catch (error) {
    await deps.storage.delete(storageKey);
    throw error;
  }
  if (!updated) {
    await deps.storage.delete(storageKey);
    return { ok: false, status: 409, message: correctionMessages.changedMeanwhile };
  }
  await deps.storage.delete(document.storageKey).catch((error: unknown) => {
    deps.logger.error({ err: error, key: document.storageKey }, "a reissued document's old PDF could not be deleted");
  });
  await announce(deps, input.learnerId, document.kind);
  return { ok: true, message: correctionMessages.reissued(document.code) };
}
