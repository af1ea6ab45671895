import { randomUUID } from "node:crypto";
import type { Db } from "~/db/database.server";
import type { DocumentJobTable } from "~/db/schema";
import { personName } from "~/accounts/person-name";
import { staffTopic } from "~/realtime/events";
import { isLearner, learnerWhere } from "~/learners/learner-filter.server";
import type { FilterClock, LearnerFilter } from "~/learners/learner-filter";
import { issueDocuments, type DocumentContent, type DocumentDeps } from "./documents.server";

/**
 * Certificates for many learners (ticked, or a whole search) are a job: one row saying who and
 * what, worked through in batches of `batchSize` learners in id order. Each batch makes its
 * PDFs, then records them and moves the job's cursor in one transaction, so a restart (or
 * another instance) goes on from the last committed batch and nobody gets two. Only one batch
 * of PDFs is in memory at a time.
 */
export const batchSize = 25;

/** How long an instance holds a job it works on; renewed every batch. */
const leaseMs = 60_000;

/** How often an instance looks for jobs left unfinished (by a restart, or another instance). */
const pollMs = 10_000;

/** The ticked learners, or every learner a filter matches (read by the clock given). */
export type JobLearners = { learnerIds: string[] } | { filter: LearnerFilter; clock: FilterClock };

/** Writes a job in the caller's transaction (the staff action's, with its audit row). */
export async function createCertificateJob(
  trx: Db,
  input: { content: DocumentContent; learners: JobLearners; total: number; createdBy: string },
  now = new Date(),
): Promise<string> {
  const id = randomUUID();
  const row: DocumentJobTable = {
    id,
    fields: JSON.stringify(input.content),
    learnerIds: "learnerIds" in input.learners ? JSON.stringify(input.learners.learnerIds) : null,
    search: "filter" in input.learners ? input.learners.filter.search : null,
    course: "filter" in input.learners ? input.learners.filter.course : null,
    filter: "filter" in input.learners ? JSON.stringify(input.learners) : null,
    cutoff: now.toISOString(),
    cursor: null,
    total: input.total,
    issued: 0,
    createdBy: input.createdBy,
    createdAt: now.toISOString(),
    finishedAt: null,
    lockedUntil: null,
    batchId: input.content.batchId ?? null,
  };
  await trx.insertInto("document_job").values(row).execute();
  return id;
}

/**
 * Takes the job for `leaseMs` if nobody holds it: the hold's end (which says it is this call's
 * hold), or null if another instance holds the job.
 */
async function claim(db: Db, jobId: string, now: Date): Promise<string | null> {
  const heldUntil = new Date(now.getTime() + leaseMs).toISOString();
  const result = await db
    .updateTable("document_job")
    .set({ lockedUntil: heldUntil })
    .where("id", "=", jobId)
    .where("finishedAt", "is", null)
    .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<", now.toISOString())]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? heldUntil : null;
}

/**
 * Lets go of this call's hold (`ends`: the hold's end, or either of two when a renewal may or
 * may not have been committed), never one another instance has taken since.
 */
async function release(db: Db, jobId: string, ends: string[]): Promise<void> {
  await db
    .updateTable("document_job")
    .set({ lockedUntil: null })
    .where("id", "=", jobId)
    .where("lockedUntil", "in", ends)
    .execute();
}

/** The next learners of a job after its cursor, in id order. */
async function nextLearners(db: Db, job: DocumentJobTable) {
  let query = db
    .selectFrom("user")
    .select(["id", "username", "name", "email"])
    .where(isLearner)
    .where("createdAt", "<=", job.cutoff);
  if (job.learnerIds !== null) {
    query = query.where("id", "in", JSON.parse(job.learnerIds) as string[]);
  } else if (job.filter !== null) {
    const { filter, clock } = JSON.parse(job.filter) as { filter: LearnerFilter; clock: FilterClock };
    query = query.where(learnerWhere(filter, clock));
  } else {
    query = query.where(learnerWhere({ search: job.search ?? "", course: job.course ?? "" }));
  }
  if (job.batchId !== null) {
    // A batch's certificate goes to each learner once: whoever got one since is passed over.
    const batchId = job.batchId;
    query = query.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("document")
            .select("document.id")
            .where("document.batchId", "=", batchId)
            .whereRef("document.learnerId", "=", "user.id")
            .where("document.revokedAt", "is", null),
        ),
      ),
    );
  }
  if (job.cursor !== null) query = query.where("id", ">", job.cursor);
  return query.orderBy("id").limit(batchSize).execute();
}

/**
 * Works one job to its end, until another instance holds it, or until `keepGoing` says stop
 * (the server is shutting down: the job is let go for the next start or another instance).
 * Returns how many documents this call issued.
 */
export async function runJob(deps: DocumentDeps, jobId: string, keepGoing = () => true): Promise<number> {
  // Held from here on: each batch renews the hold in its own transaction.
  const claimed = await claim(deps.db, jobId, new Date());
  if (claimed === null) return 0;
  const hold = { until: claimed, renewing: claimed };
  try {
    return await workHeldJob(deps, jobId, keepGoing, hold);
  } catch (error) {
    // A batch that failed (a full disk, a lost database connection) wrote nothing: the job is let
    // go at once, so the next look for unfinished jobs takes it up rather than the lease's end.
    await release(deps.db, jobId, [hold.until, hold.renewing]).catch(() => {});
    throw error;
  }
}

async function workHeldJob(
  deps: DocumentDeps,
  jobId: string,
  keepGoing: () => boolean,
  hold: { until: string; renewing: string },
): Promise<number> {
  let issued = 0;
  for (;;) {
    if (!keepGoing()) {
      await release(deps.db, jobId, [hold.until]);
      return issued;
    }
    const job = await deps.db.selectFrom("document_job").selectAll().where("id", "=", jobId).executeTakeFirst();
    if (!job || job.finishedAt) return issued;
    const learners = await nextLearners(deps.db, job);
    if (learners.length === 0) {
      const finishedAt = new Date().toISOString();
      await deps.db
        .updateTable("document_job")
        .set({ finishedAt, lockedUntil: null })
        .where("id", "=", jobId)
        .execute();
      await deps.bus.publish(staffTopic, { type: "documents", kind: "certificate" });
      deps.logger.info({ job: jobId, issued: job.issued }, "certificates issued");
      return issued;
    }
    // Written by createCertificateJob from checked fields.
    const content = JSON.parse(job.fields) as DocumentContent;
    const cursor = learners.at(-1)!.id;
    const renewed = new Date(Date.now() + leaseMs).toISOString();
    hold.renewing = renewed;
    await issueDocuments(
      deps,
      learners.map((learner) => ({ id: learner.id, name: personName(learner), email: learner.email })),
      content,
      job.createdBy,
      async (trx) => {
        // Moves the cursor only from where this batch started: had another instance taken the
        // job meanwhile, nothing of this batch is recorded.
        const moved = await trx
          .updateTable("document_job")
          .set({ cursor, issued: job.issued + learners.length, lockedUntil: renewed })
          .where("id", "=", jobId)
          .where((eb) => (job.cursor === null ? eb("cursor", "is", null) : eb("cursor", "=", job.cursor)))
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new Error("the certificate job was taken over");
      },
    );
    hold.until = renewed;
    issued += learners.length;
  }
}

/**
 * Runs unfinished jobs on this instance: at once when asked (`kick`, after a job is made) and
 * every `pollMs` for any left over. One job at a time, so issuing uses at most one core's
 * share of the event loop.
 */
export function startDocumentJobs(deps: DocumentDeps): { kick(): void; stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const work = async () => {
    do {
      again = false;
      const jobs = await deps.db
        .selectFrom("document_job")
        .select("id")
        .where("finishedAt", "is", null)
        .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<", new Date().toISOString())]))
        .orderBy("createdAt")
        .execute();
      for (const job of jobs) {
        if (stopped) return;
        await runJob(deps, job.id, () => !stopped);
      }
    } while (again && !stopped);
  };
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = work()
      .catch((error: unknown) => deps.logger.error({ err: error }, "issuing certificates failed; retrying later"))
      .finally(() => (running = null));
  };
  const timer = setInterval(kick, pollMs);
  timer.unref();
  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
