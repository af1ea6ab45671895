import { PostgresAdapter, sql } from "kysely";
import { personName } from "~/accounts/person-name";
import { verifyUrl } from "~/documents/code";
import { documentIssuedMessage } from "~/documents/document-mail.server";
import { pdfFileName } from "~/documents/documents.server";
import type { Db } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import { calendarDate, hourIn } from "~/learners/day-number";
import { kindLabels, messageKinds, type MessageKind } from "~/messages/kinds";
import type { EventBus } from "~/realtime/bus.server";
import type { UploadStorage } from "~/uploads/storage.server";
import { mailTopic } from "~/realtime/events";
import { emailKinds, type EmailKind, type EmailPreferences } from "./email-kinds";
import { readEmailPreferences } from "./email-preferences.server";
import { invitationExpiryDays } from "~/accounts/invitations.server";
import { escapeHtml, invitationMessage, isTemporaryMailFailure, type Mailer, type MailMessage } from "./mailer.server";
import {
  asNotification,
  digestEmail,
  digestItemLimit,
  messageEmail,
  type DigestItem,
  type NotificationContext,
} from "./notification-mail.server";
import { unsubscribeToken, unsubscribeUrl } from "./unsubscribe.server";
import { enquiryEmail } from "~/enquiries/enquiry-mail.server";

export interface MailWorkerOptions {
  /** How often the worker looks for due emails and digests even when nothing woke it. */
  pollMs: number;
  /** Emails being sent at once. */
  concurrency: number;
  /** The first retry's wait; each later one waits twice as long, up to an hour. */
  retryBaseMs: number;
  /** Attempts before a temporary failure is given up on. */
  maxAttempts: number;
  /** How long a claimed job stays this instance's before another may take it. */
  claimMs: number;
}

export const defaultMailWorkerOptions: MailWorkerOptions = {
  pollMs: 10_000,
  concurrency: 4,
  retryBaseMs: 30_000,
  maxAttempts: 8,
  claimMs: 5 * 60_000,
};

export interface MailWorkerDeps {
  db: Db;
  bus: EventBus;
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
  siteName: string;
  /** Where enquiries from the public site are emailed (SITE_EMAIL). */
  siteEmail: string;
  timeZone: string;
  digestHour: number;
  unsubscribeKey: Buffer;
  /** Where documents' PDFs are, to attach them. */
  storage: UploadStorage;
  /** Makes a new link for an invited learner to choose their password (newInvitationLink). */
  invitationLink: (learnerId: string) => Promise<string>;
}

type ClaimedJob = {
  key: string;
  kind: string;
  learnerId: string | null;
  refId: string | null;
  windowStart: string | null;
  windowEnd: string | null;
  attempts: number;
};

/** What delivering a job came to. */
type Outcome = { status: "sent" } | { status: "skipped"; reason: string };

const finishedKeepMs = 7 * 86_400_000;
const claimBatch = 20;
const digestBatch = 500;
const maxErrorLength = 500;

/**
 * Sends the queued emails, in the background, on every instance: each claims a few due jobs at
 * a time (skipping those another holds), sends them a few at once, and retries temporary
 * failures with a growing wait. It also makes each learner's daily digest once the day's digest
 * hour has come. A failed email never fails what queued it.
 */
export class MailWorker {
  private readonly options: MailWorkerOptions;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private digestCursor = "";
  private lastPurge = 0;

  constructor(
    private readonly deps: MailWorkerDeps,
    options: Partial<MailWorkerOptions> = {},
  ) {
    const chosen = Object.fromEntries(Object.entries(options).filter(([name]) => name in defaultMailWorkerOptions));
    this.options = { ...defaultMailWorkerOptions, ...chosen };
  }

  /** Wakes on queued mail (from any instance sharing the bus) and on a timer. */
  start(): void {
    this.unsubscribe = this.deps.bus.subscribe(mailTopic, () => this.wake());
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops waking and waits for the emails being sent now. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    await this.running;
  }

  private wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.runOnce();
        } catch (error) {
          this.deps.logger.warn({ err: error }, "mail queue round failed");
        }
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = undefined));
  }

  /** One round: the digests that are due, then every due email. Tests call it directly. */
  async runOnce(now = new Date()): Promise<void> {
    await this.queueDigests(now);
    // Only what is due now: a retry scheduled during this round waits for a later one.
    const roundStart = Date.now();
    while (!this.stopped) {
      const jobs = await this.claim(roundStart);
      if (jobs.length === 0) break;
      await inParallel(jobs, this.options.concurrency, (job) => this.deliver(job));
    }
    if (now.getTime() - this.lastPurge > 3_600_000) {
      this.lastPurge = now.getTime();
      await this.deps.db
        .deleteFrom("mail_job")
        .where("finishedAt", "<", new Date(now.getTime() - finishedKeepMs).toISOString())
        .execute();
    }
  }

  private async claim(dueBy: number): Promise<ClaimedJob[]> {
    const { db } = this.deps;
    const now = Date.now();
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const due = db
      .selectFrom("mail_job")
      .select("key")
      .where("status", "=", "pending")
      .where("nextAttemptAt", "<=", dueBy)
      .where((w) => w.or([w("lockedUntil", "is", null), w("lockedUntil", "<=", now)]))
      .orderBy("nextAttemptAt")
      .limit(claimBatch);
    return (
      db
        .updateTable("mail_job")
        .set({ lockedUntil: now + this.options.claimMs })
        // PostgreSQL: instances skip each other's rows instead of waiting; SQLite has one writer.
        .where("key", "in", postgres ? due.forUpdate().skipLocked() : due)
        .where("status", "=", "pending")
        .returning(["key", "kind", "learnerId", "refId", "windowStart", "windowEnd", "attempts"])
        .execute()
    );
  }

  private async deliver(job: ClaimedJob): Promise<void> {
    const { db, logger } = this.deps;
    let outcome: Outcome;
    try {
      outcome = await this.send(job);
    } catch (error) {
      const attempts = job.attempts + 1;
      const retry = isTemporaryMailFailure(error) && attempts < this.options.maxAttempts;
      const wait = Math.min(this.options.retryBaseMs * 2 ** (attempts - 1), 3_600_000);
      const lastError = String((error as Error)?.message ?? error).slice(0, maxErrorLength);
      logger.warn({ job: job.key, attempts, retry, err: lastError }, "notification email failed");
      await db
        .updateTable("mail_job")
        .set(
          retry
            ? { attempts, nextAttemptAt: Date.now() + wait, lockedUntil: null, lastError }
            : {
                attempts,
                status: "failed",
                lockedUntil: null,
                lastError,
                finishedAt: new Date().toISOString(),
              },
        )
        .where("key", "=", job.key)
        .execute();
      return;
    }
    await db
      .updateTable("mail_job")
      .set({
        status: outcome.status,
        attempts: job.attempts + 1,
        lockedUntil: null,
        lastError: outcome.status === "skipped" ? outcome.reason : null,
        finishedAt: new Date().toISOString(),
      })
      .where("key", "=", job.key)
      .execute();
  }

  /** Writes the email as of now (the learner's address, name and choices today) and sends it. */
  private async send(job: ClaimedJob): Promise<Outcome> {
    const { db, mailer } = this.deps;
    if (job.kind === "enquiry" || job.kind === "enquiry-invite") {
      const { appUrl, siteName, siteEmail } = this.deps;
      const message = await enquiryEmail(db, { appUrl, siteName, siteEmail }, { kind: job.kind, refId: job.refId });
      if (!message) return { status: "skipped", reason: "The enquiry is gone." };
      await mailer.send(message);
      return { status: "sent" };
    }
    if (job.learnerId === null) return { status: "skipped", reason: `No account for an email of kind ${job.kind}` };
    const learnerId = job.learnerId;
    const learner = await db
      .selectFrom("user")
      .select(["email", "username", "name"])
      .where("id", "=", learnerId)
      .executeTakeFirst();
    if (!learner) return { status: "skipped", reason: "The account is gone." };
    if (job.kind === "invitation") {
      // An account email, whatever the learner's choices; pointless once they have a password.
      const credential = await db
        .selectFrom("account")
        .select("id")
        .where("userId", "=", learnerId)
        .where("providerId", "=", "credential")
        .executeTakeFirst();
      if (credential) return { status: "skipped", reason: "The learner has chosen a password." };
      await mailer.send(
        invitationMessage({
          to: learner.email,
          name: personName(learner),
          link: await this.deps.invitationLink(learnerId),
          siteName: this.deps.siteName,
          expiresInDays: invitationExpiryDays,
        }),
      );
      return { status: "sent" };
    }
    const preferences = await readEmailPreferences(db, learnerId);
    const context = (kinds: EmailKind[]): NotificationContext => ({
      to: learner.email,
      name: personName(learner),
      siteName: this.deps.siteName,
      appUrl: this.deps.appUrl,
      timeZone: this.deps.timeZone,
      kinds,
      unsubscribeUrl: unsubscribeUrl(this.deps.appUrl, unsubscribeToken(this.deps.unsubscribeKey, learnerId, kinds)),
    });

    let message: MailMessage;
    if (isMessageKind(job.kind)) {
      if (preferences[job.kind] !== "immediate")
        return { status: "skipped", reason: "The learner changed their choice." };
      const item = await db
        .selectFrom("message")
        .select(["kind", "body", "sentAt"])
        .where("id", "=", job.refId ?? "")
        .where("learnerId", "=", learnerId)
        .executeTakeFirst();
      if (!item) return { status: "skipped", reason: "The message was deleted." };
      message = messageEmail(context([job.kind]), { kind: item.kind, html: item.body, sentAt: item.sentAt });
    } else if (job.kind === "document") {
      if (preferences.document !== "immediate")
        return { status: "skipped", reason: "The learner changed their choice." };
      const document = await db
        .selectFrom("document")
        .select(["kind", "title", "code", "jws", "storageKey", "revokedAt", "issuerUrl"])
        .where("id", "=", job.refId ?? "")
        .where("learnerId", "=", learnerId)
        .executeTakeFirst();
      if (!document) return { status: "skipped", reason: "The document is gone." };
      if (document.revokedAt) return { status: "skipped", reason: "The document was revoked before it went." };
      const stored = await this.deps.storage.get(document.storageKey);
      if (!stored) throw new Error(`the PDF of ${document.code} is missing from storage`);
      const pdf = Buffer.concat(await stored.stream.toArray());
      message = asNotification(
        context(["document"]),
        documentIssuedMessage({
          to: learner.email,
          name: personName(learner),
          kind: document.kind,
          title: document.title,
          code: document.code,
          siteName: this.deps.siteName,
          verifyUrl: verifyUrl(document.issuerUrl, document.code, document.jws),
          pdf,
          fileName: pdfFileName(document),
        }),
      );
    } else if (job.kind === "digest") {
      const kinds = digestKinds(preferences);
      if (kinds.length === 0) return { status: "skipped", reason: "No kind is on the digest any more." };
      const window = { learnerId: learnerId, from: job.windowStart ?? "", to: job.windowEnd ?? "" };
      const { items, more } = await digestItems(db, window, kinds);
      if (items.length === 0) return { status: "skipped", reason: "Nothing arrived (it was deleted)." };
      message = digestEmail(context(kinds), items, more);
    } else {
      return { status: "skipped", reason: `Unknown kind of email: ${job.kind}` };
    }
    await mailer.send(message);
    return { status: "sent" };
  }

  /**
   * After the digest hour, queues the day's digest for each learner with something new on it:
   * once a day, whichever instance gets there first (the day is recorded in the same update
   * that moves the learner's digest window on). A few hundred learners are looked at per round.
   */
  private async queueDigests(now: Date): Promise<void> {
    const { db, timeZone, digestHour } = this.deps;
    if (hourIn(now, timeZone) < digestHour) return;
    const today = calendarDate(now, timeZone);
    const candidates = await db
      .selectFrom("email_preference")
      .select(["learnerId", "digestFrom", ...emailKinds])
      .where("digestFrom", "is not", null)
      .where((w) => w.or([w("digestSentOn", "is", null), w("digestSentOn", "<", today)]))
      .where("learnerId", ">", this.digestCursor)
      .orderBy("learnerId")
      .limit(digestBatch)
      .execute();
    this.digestCursor = candidates.length === digestBatch ? candidates.at(-1)!.learnerId : "";
    const nowIso = now.toISOString();
    for (const candidate of candidates) {
      const kinds = digestKinds(candidate);
      if (kinds.length === 0 || !candidate.digestFrom) continue;
      const window = { learnerId: candidate.learnerId, from: candidate.digestFrom, to: nowIso };
      const waiting = (await digestItems(db, window, kinds, 1)).items.length > 0;
      // Nothing yet: looked at again next round, so what arrives later today still goes today.
      if (!waiting) continue;
      await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable("email_preference")
          .set({ digestFrom: nowIso, digestSentOn: today })
          .where("learnerId", "=", candidate.learnerId)
          .where("digestFrom", "=", candidate.digestFrom)
          .where((w) => w.or([w("digestSentOn", "is", null), w("digestSentOn", "<", today)]))
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return;
        await trx
          .insertInto("mail_job")
          .values({
            key: `digest:${candidate.learnerId}:${today}`,
            kind: "digest",
            learnerId: candidate.learnerId,
            refId: null,
            windowStart: candidate.digestFrom,
            windowEnd: nowIso,
            status: "pending",
            attempts: 0,
            nextAttemptAt: Date.now(),
            lockedUntil: null,
            lastError: null,
            createdAt: nowIso,
            finishedAt: null,
          })
          .onConflict((conflict) => conflict.column("key").doNothing())
          .execute();
      });
    }
  }
}

const isMessageKind = (kind: string): kind is MessageKind => (messageKinds as readonly string[]).includes(kind);

const digestKinds = (preferences: EmailPreferences): EmailKind[] =>
  emailKinds.filter((kind) => preferences[kind] === "digest");

/**
 * What a digest lists for a learner in a window (after `from`, up to `to`), oldest first: the
 * messages of the chosen kinds and, if chosen, the documents issued; at most `limit`, and how
 * many more there are.
 */
async function digestItems(
  db: Db,
  window: { learnerId: string; from: string; to: string },
  kinds: EmailKind[],
  limit = digestItemLimit,
): Promise<{ items: DigestItem[]; more: number }> {
  const messageKindsChosen = kinds.filter(isMessageKind);
  // The window's messages and documents; read up to the limit, and counted only past it.
  const messagesIn = () =>
    db
      .selectFrom("message")
      .where("learnerId", "=", window.learnerId)
      .where("kind", "in", messageKindsChosen)
      .where("sentAt", ">", window.from)
      .where("sentAt", "<=", window.to);
  const documentsIn = () =>
    db
      .selectFrom("document")
      .where("learnerId", "=", window.learnerId)
      .where("createdAt", ">", window.from)
      .where("createdAt", "<=", window.to);
  const wantsMessages = messageKindsChosen.length > 0;
  const wantsDocuments = kinds.includes("document");
  const messages = wantsMessages
    ? await messagesIn()
        .select(["kind", "body", "sentAt"])
        .orderBy("sentAt")
        .limit(limit + 1)
        .execute()
    : [];
  const documents = wantsDocuments
    ? await documentsIn()
        .select(["kind", "title", "code", "issuerUrl", "createdAt"])
        .orderBy("createdAt")
        .limit(limit + 1)
        .execute()
    : [];
  const all: DigestItem[] = [
    ...messages.map((item) => ({ label: kindLabels[item.kind].title, html: item.body, sentAt: item.sentAt })),
    ...documents.map((document) => {
      const link = verifyUrl(document.issuerUrl, document.code);
      const what = document.kind === "certificate" ? "Certificate" : "Offer letter";
      return {
        label: what,
        html: `<p>${escapeHtml(`${what}: ${document.title} (${document.code})`)}. <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        sentAt: document.createdAt,
      };
    }),
  ].sort((a, b) => (a.sentAt < b.sentAt ? -1 : a.sentAt > b.sentAt ? 1 : 0));
  if (all.length <= limit) return { items: all, more: 0 };
  // Past the limit, the rest are counted (a digest after weeks away).
  const countAll = sql<number | string>`count(*)`.as("n");
  const messageCount = wantsMessages ? Number((await messagesIn().select(countAll).executeTakeFirstOrThrow()).n) : 0;
  const documentCount = wantsDocuments ? Number((await documentsIn().select(countAll).executeTakeFirstOrThrow()).n) : 0;
  const total = messageCount + documentCount;
  return { items: all.slice(0, limit), more: total - limit };
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
