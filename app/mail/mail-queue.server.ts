import { PostgresAdapter } from "kysely";
import type { Db } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import type { EventBus } from "~/realtime/bus.server";
import { mailTopic } from "~/realtime/events";
import type { MailJobKind } from "./email-kinds";
import { isTemporaryMailFailure, type Mailer, type MailMessage } from "./mailer.server";

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

/** A queued email this instance has claimed, as its handler gets it. */
export interface MailJob<Kind extends MailJobKind = MailJobKind> {
  key: string;
  kind: Kind;
  learnerId: string | null;
  refId: string | null;
  windowStart: string | null;
  windowEnd: string | null;
  attempts: number;
}

/** What a handler makes of a job: the email to send now, or why none goes. */
export type MailOutcome = { status: "send"; message: MailMessage } | { status: "skipped"; reason: string };

export const sendMail = (message: MailMessage): MailOutcome => ({ status: "send", message });

export const skipMail = (reason: string): MailOutcome => ({ status: "skipped", reason });

/**
 * Writes the email of one job as of now (the recipient's address, name and choices today). A
 * thrown error is a failed attempt: retried if it may work later (`isTemporaryMailFailure`).
 */
export type MailHandler<Kind extends MailJobKind = MailJobKind> = (job: MailJob<Kind>) => Promise<MailOutcome>;

/** One handler for every kind of job: a kind without one fails the typecheck. */
export type MailHandlers = { readonly [Kind in MailJobKind]: MailHandler<Kind> };

export interface MailWorkerDeps {
  db: Db;
  bus: EventBus;
  mailer: Mailer;
  logger: Logger;
  handlers: MailHandlers;
  /** Run at the start of each round to queue what the clock has made due (the day's digests). */
  queueDue: readonly ((now: Date) => Promise<void>)[];
}

const finishedKeepMs = 7 * 86_400_000;
const claimBatch = 20;
const maxErrorLength = 500;

/**
 * Sends the queued emails, in the background, on every instance: each claims a few due jobs at
 * a time (skipping those another holds), sends them a few at once, and retries temporary
 * failures with a growing wait. What each kind of email says is its handler's business; a
 * failed email never fails what queued it.
 */
export class MailWorker {
  private readonly options: MailWorkerOptions;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
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

  /** One round: what the clock made due, then every due email. Tests call it directly. */
  async runOnce(now = new Date()): Promise<void> {
    for (const queueDue of this.deps.queueDue) await queueDue(now);
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

  private async claim(dueBy: number): Promise<MailJob[]> {
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

  private async deliver(job: MailJob): Promise<void> {
    const { db, logger } = this.deps;
    let outcome: MailOutcome;
    try {
      outcome = await this.write(job);
      if (outcome.status === "send") await this.deps.mailer.send(outcome.message);
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
        status: outcome.status === "send" ? "sent" : "skipped",
        attempts: job.attempts + 1,
        lockedUntil: null,
        lastError: outcome.status === "skipped" ? outcome.reason : null,
        finishedAt: new Date().toISOString(),
      })
      .where("key", "=", job.key)
      .execute();
  }

  private write(job: MailJob): Promise<MailOutcome> {
    // A kind an older or newer version queued, that this one has no handler for.
    const handler = (this.deps.handlers as Partial<Record<string, MailHandler>>)[job.kind];
    if (!handler) return Promise.resolve(skipMail(`Unknown kind of email: ${job.kind}`));
    return handler(job);
  }
}

/** A job due now, as `queueDue` functions and features' queueing insert it. */
export function pendingMailJob(
  job: Pick<MailJob, "key" | "kind" | "learnerId"> & Partial<Pick<MailJob, "refId" | "windowStart" | "windowEnd">>,
  now = Date.now(),
) {
  return {
    refId: null,
    windowStart: null,
    windowEnd: null,
    ...job,
    status: "pending" as const,
    attempts: 0,
    nextAttemptAt: now,
    lockedUntil: null,
    lastError: null,
    createdAt: new Date(now).toISOString(),
    finishedAt: null,
  };
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
