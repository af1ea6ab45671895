import { createHash, randomBytes, randomUUID } from "node:crypto";
import { touch } from "~/core/transaction.server";
import { setImmediate as nextTurn } from "node:timers/promises";
import { PostgresAdapter, sql, type Selectable } from "kysely";
import type { Config } from "~/config/config.server";
import type { Db } from "~/db/database.server";
import type { DocumentTable } from "~/db/schema";
import type { Logger } from "~/logging/logger.server";
import type { Mailer } from "~/mail/mailer.server";
import { countDocumentsIssued } from "~/metrics/metrics.server";
import type { EventBus } from "~/realtime/bus.server";
import { queueDocumentEmails } from "~/mail/queue-emails.server";
import { paragraphsFromHtml } from "~/messages/plain-text.server";
import { mailTopic, staffTopic, userTopic } from "~/realtime/events";
import { newStorageKey, type UploadStorage } from "~/uploads/storage.server";
import { generateCode, verifyUrl } from "./code";
import type { DocumentKind, OfferResponse, PayKind, PayPeriod } from "./kinds";
import { storedOpenBadge } from "./open-badge.server";
import { renderDocumentPdf, type DocumentFields, type PdfDocument } from "./pdf.server";
import { signDocumentClaims } from "./signing.server";
import { readDocumentSettings } from "./settings.server";
import { currentInstitute, instituteLogoBytes } from "~/site/sections/institute.server";

export interface DocumentDeps {
  db: Db;
  bus: EventBus;
  storage: UploadStorage;
  mailer: Mailer;
  logger: Logger;
  config: Pick<Config, "appUrl" | "site" | "instituteTimeZone">;
}

/**
 * The institute a PDF made now prints: its name, contact and logo as stored at /staff/site
 * (read for each issuing, so a change shows in the next PDF on every instance).
 */
export async function pdfIssuer(db: Db, site: Config["site"]): Promise<PdfDocument["issuer"]> {
  const institute = await currentInstitute(db, site);
  const { name, address, email, phone } = institute;
  return { name, address, email, phone, logo: await instituteLogoBytes(db, institute) };
}

/** Whom a document is made out to. */
export interface Holder {
  id: string;
  name: string;
  email: string;
}

/** What every document of one issuing shares: everything but the holder. */
export interface DocumentContent {
  kind: DocumentKind;
  title: string;
  description: string | null;
  issuedOn: string;
  validUntil: string | null;
  hours: number | null;
  startDate: string | null;
  location: string | null;
  pay: { kind: PayKind; amountPaise: number; period: PayPeriod } | null;
  replyBy: string | null;
  /** The offer letter's body: sanitized HTML, as stored. */
  body: string | null;
  /** The batch a certificate is issued for: each learner holds at most one valid of its certificates. */
  batchId?: string | null;
}

/** A document's row as it is written (its status list position comes when it is recorded). */
type NewDocument = Omit<Selectable<DocumentTable>, "statusIndex" | "payAmountPaise"> & {
  payAmountPaise: number | null;
};

/** A document made and stored, not yet recorded. */
interface Made {
  row: NewDocument;
  holder: Holder;
  pdf: Buffer;
}

/** The name a downloaded PDF gets: 'Certificate - Full Stack Web Development - UPS-….pdf'. */
export function pdfFileName(document: { kind: DocumentKind; title: string; code: string }): string {
  const what = document.kind === "certificate" ? "Certificate" : "Offer letter";
  const title = document.title.replace(/[\\/:*?"<>|]+/g, " ").trim();
  return `${what} - ${title} - ${document.code}.pdf`;
}

/**
 * Makes each holder's PDF and stores it; nothing is recorded yet. Each PDF takes some tens of
 * milliseconds of CPU, so the event loop gets a turn between them.
 */
async function makeDocuments(
  deps: DocumentDeps,
  holders: Holder[],
  content: DocumentContent,
  issuedBy: string | null,
): Promise<Made[]> {
  const { config } = deps;
  const settings = await readDocumentSettings(deps.db, deps.storage);
  const issuer = await pdfIssuer(deps.db, config.site);
  const signatory =
    settings.signatoryName && settings.signatoryTitle
      ? { name: settings.signatoryName, title: settings.signatoryTitle, image: settings.signatureImage }
      : null;
  const made: Made[] = [];
  try {
    for (const holder of holders) {
      const code = generateCode(randomBytes);
      const jws = await signDocumentClaims(deps.db, {
        code,
        kind: content.kind,
        holder: holder.name,
        title: content.title,
        issuedOn: content.issuedOn,
        validUntil: content.validUntil,
        issuer: config.appUrl,
      });
      const pdf = await renderDocumentPdf({
        ...content,
        code,
        holderName: holder.name,
        paragraphs: content.body ? paragraphsFromHtml(content.body) : [],
        issuer,
        signatory,
        verifyUrl: verifyUrl(config.appUrl, code, jws),
      });
      const storageKey = newStorageKey("documents", ".pdf");
      await deps.storage.put(storageKey, pdf);
      const now = new Date().toISOString();
      made.push({
        holder,
        pdf,
        row: {
          id: randomUUID(),
          code,
          kind: content.kind,
          learnerId: holder.id,
          holderName: holder.name,
          title: content.title,
          description: content.description,
          issuedOn: content.issuedOn,
          validUntil: content.validUntil,
          hours: content.hours,
          startDate: content.startDate,
          location: content.location,
          payKind: content.pay?.kind ?? null,
          payAmountPaise: content.pay?.amountPaise ?? null,
          payPeriod: content.pay?.period ?? null,
          replyBy: content.replyBy,
          body: content.body,
          response: null,
          respondedAt: null,
          issuerName: issuer.name,
          issuerUrl: config.appUrl,
          signatoryName: signatory?.name ?? null,
          signatoryTitle: signatory?.title ?? null,
          storageKey,
          sha256: createHash("sha256").update(pdf).digest("hex"),
          jws,
          credential: null,
          issuedBy,
          createdAt: now,
          updatedAt: now,
          reissuedAt: null,
          revokedAt: null,
          revokeReason: null,
          revokedBy: null,
          readAt: null,
          batchId: content.batchId ?? null,
        },
      });
      await nextTurn();
    }
  } catch (error) {
    await discard(deps, made);
    throw error;
  }
  return made;
}

/** Removes the stored PDFs of documents that were not recorded after all. */
async function discard(deps: Pick<DocumentDeps, "storage" | "logger">, made: Made[]): Promise<void> {
  for (const { row } of made) {
    await deps.storage.delete(row.storageKey).catch((error: unknown) => {
      deps.logger.warn({ err: error, key: row.storageKey }, "an unrecorded document's PDF could not be deleted");
    });
  }
}

/**
 * Records made documents in the caller's transaction, each with the next position in the
 * revocation status list. On PostgreSQL a transaction-scoped lock makes two issuings take
 * their positions one after the other (SQLite runs one writer at a time anyway).
 */
async function recordDocuments(trx: Db, made: Made[]): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext('document.statusIndex'))`.execute(trx);
  }
  const top = await trx
    .selectFrom("document")
    .select((eb) => eb.fn.max("statusIndex").as("top"))
    .executeTakeFirst();
  let next = top?.top === null || top?.top === undefined ? 0 : Number(top.top) + 1;
  for (let i = 0; i < made.length; i += 100) {
    const rows = made.slice(i, i + 100).map(({ row }) => ({ ...row, statusIndex: next++ }));
    await trx.insertInto("document").values(rows).execute();
  }
}

/**
 * Signs each new certificate's Open Badges credential once, now that its status list position
 * is recorded, and stores it to be served as it is. One that fails here is signed on its first
 * fetch instead.
 */
async function signOpenBadges(deps: DocumentDeps, made: Made[]): Promise<void> {
  for (const { row } of made) {
    if (row.kind !== "certificate") continue;
    try {
      await storedOpenBadge(deps.db, row.code, deps.config.instituteTimeZone);
    } catch (error) {
      deps.logger.warn({ err: error, documentId: row.id }, "a certificate's Open Badge is left to its first fetch");
    }
    await nextTurn();
  }
}

/** Two codes alike: 80 random bits make it all but impossible, but the constraint is the last word. */
function isCodeCollision(error: unknown): boolean {
  const { message = "", constraint = "" } = error as { message?: string; constraint?: string };
  return message.includes("document.code") || constraint === "document_code_key";
}

/**
 * Issues one document to each holder: makes and stores the PDFs, then records them with
 * `alsoInTransaction` (the audit row, a job's progress) in one transaction, and once it has
 * committed tells the holders' tabs and the mail workers. Returns what was recorded.
 */
export async function issueDocuments(
  deps: DocumentDeps,
  holders: Holder[],
  content: DocumentContent,
  issuedBy: string | null,
  alsoInTransaction: (trx: Db) => Promise<void> = async () => {},
): Promise<{ rows: Made["row"][] }> {
  for (let attempt = 1; ; attempt++) {
    const made = await makeDocuments(deps, holders, content, issuedBy);
    try {
      await deps.db.transaction().execute(async (trx) => {
        // The holders' pages and staff's show it; nobody else's.
        await touch(trx, { people: [...new Set(made.map(({ holder }) => holder.id))] });
        await recordDocuments(trx, made);
        // The holders' emails (the PDF attached) go through the mail queue, as they chose.
        await queueDocumentEmails(
          trx,
          made.map(({ row }) => row.id),
        );
        await alsoInTransaction(trx);
      });
    } catch (error) {
      await discard(deps, made);
      if (attempt < 3 && isCodeCollision(error)) continue;
      throw error;
    }
    await signOpenBadges(deps, made);
    for (let i = 0; i < made.length; i += 100) {
      await Promise.all(
        made
          .slice(i, i + 100)
          .map(({ row, holder }) => deps.bus.publish(userTopic(holder.id), { type: "documents", kind: row.kind })),
      );
    }
    await deps.bus.publish(mailTopic, { type: "mail-queued" });
    countDocumentsIssued(made.length);
    return { rows: made.map(({ row }) => row) };
  }
}

/** A document as its holder and staff see it listed (never its PDF's storage key). */
export interface DocumentView extends DocumentFields {
  id: string;
  /** Sanitized HTML, as stored. */
  body: string | null;
  response: OfferResponse | null;
  respondedAt: string | null;
  issuerName: string;
  jws: string | null;
  revokedAt: string | null;
  revokeReason: string | null;
  reissuedAt: string | null;
  createdAt: string;
}

/** How many documents a list shows (the newest). */
const listedDocuments = 200;

/** A learner's documents, newest first: of one kind (their popup) or all (the staff's page). */
export async function listDocuments(db: Db, learnerId: string, kind?: DocumentKind): Promise<DocumentView[]> {
  let query = db
    .selectFrom("document")
    .select([
      "id",
      "code",
      "kind",
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
      "response",
      "respondedAt",
      "issuerName",
      "jws",
      "revokedAt",
      "revokeReason",
      "reissuedAt",
      "createdAt",
    ])
    .where("learnerId", "=", learnerId);
  if (kind) query = query.where("kind", "=", kind);
  const rows = await query.orderBy("createdAt", "desc").orderBy("id", "desc").limit(listedDocuments).execute();
  return rows.map(({ payKind, payAmountPaise, payPeriod, hours, ...row }) => ({
    ...row,
    hours: hours === null ? null : Number(hours),
    pay:
      payKind && payAmountPaise !== null && payPeriod
        ? { kind: payKind, amountPaise: Number(payAmountPaise), period: payPeriod }
        : null,
  }));
}

/**
 * The learner's answer to their offer letter: only theirs, only once, not after the reply-by
 * date (in the institute's time zone) and not once withdrawn. Staff pages and the learner's
 * other tabs hear of it.
 */
export async function answerOffer(
  { db, bus }: Pick<DocumentDeps, "db" | "bus">,
  learnerId: string,
  input: { documentId: string; answer: OfferResponse; today: string },
  now = new Date(),
): Promise<"answered" | "not-found" | "answered-before" | "too-late" | "revoked"> {
  const respondedAt = now.toISOString();
  const outcome = await db.transaction().execute(async (trx) => {
    await touch(trx, { people: [learnerId] });
    const document = await trx
      .selectFrom("document")
      .select(["id", "response", "replyBy", "revokedAt"])
      .where("id", "=", input.documentId)
      .where("learnerId", "=", learnerId)
      .where("kind", "=", "offer-letter")
      .executeTakeFirst();
    if (!document) return "not-found" as const;
    if (document.response) return "answered-before" as const;
    if (document.revokedAt) return "revoked" as const;
    if (document.replyBy !== null && document.replyBy < input.today) return "too-late" as const;
    // `response is null` again here: of two answers at once, only the first changes the row.
    const result = await trx
      .updateTable("document")
      .set({ response: input.answer, respondedAt, updatedAt: respondedAt })
      .where("id", "=", document.id)
      .where("response", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? ("answered" as const) : ("answered-before" as const);
  });
  if (outcome === "answered") {
    await Promise.all([
      bus.publish(userTopic(learnerId), { type: "documents", kind: "offer-letter" }),
      bus.publish(staffTopic, { type: "documents", kind: "offer-letter", learnerId }),
    ]);
  }
  return outcome;
}

/** A stored PDF and its name, for the one allowed to download it; null for anyone else. */
export async function documentPdf(
  { db, storage }: Pick<DocumentDeps, "db" | "storage">,
  code: string,
  viewer: { id: string; isStaff: boolean },
) {
  const row = await db
    .selectFrom("document")
    .select(["learnerId", "storageKey", "kind", "title", "code"])
    .where("code", "=", code)
    .executeTakeFirst();
  if (!row || (row.learnerId !== viewer.id && !viewer.isStaff)) return null;
  const object = await storage.get(row.storageKey);
  return object ? { ...object, fileName: pdfFileName(row) } : null;
}
