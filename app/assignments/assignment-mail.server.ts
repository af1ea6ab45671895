import { writing } from "~/core/transaction.server";
import type { Db } from "~/db/database.server";
import { spanOf, type DigestSource, type DigestSpan } from "~/mail/digest.server";
import type { EmailKind } from "~/mail/email-kinds";
import { notificationAbout, type NotificationSettings } from "~/mail/learner-mail.server";
import { pendingMailJob, sendMail, skipMail, type MailHandler } from "~/mail/mail-queue.server";
import type { DigestItem } from "~/mail/notification-mail.server";
import { assignmentEmail, feedbackWords, reminderWords, type FeedbackFacts } from "./assignment-mail-text.server";
import type { AssignmentStatus } from "./statuses";

// An assignment's two emails, both following the learner's choice for tasks (immediately, in
// the daily digest, or not at all): a reminder a day before it is due while the learner has not
// handed it in, and the trainer's review of what they handed in.

/** Their email choice: both are about the learner's tasks, and their link turns tasks off. */
export const assignmentMailAbout = "task" satisfies EmailKind;

const remindBeforeMs = 24 * 3_600_000;

/**
 * Still waiting for the learner: never handed in, or sent back for changes (the trainer waits
 * for a new hand-in). A hand-in waiting for review or accepted needs no reminder.
 */
export const remindedStatuses = ["not-started", "changes-requested"] as const satisfies readonly AssignmentStatus[];

/** A review the learner hears about (a later hand-in makes it old news). */
const reviewedStatuses = ["changes-requested", "accepted"] as const satisfies readonly AssignmentStatus[];

/** Learners' assignments marked per transaction, and at most this many transactions a round. */
const remindBatch = 500;
const remindBatchesPerRound = 20;

const assignmentLink = (appUrl: string, assignmentId: string) =>
  `${appUrl}/dashboard?show=tasks#assignment-${encodeURIComponent(assignmentId)}`;

/**
 * Run by the mail worker's round on every instance (no timer per assignment), before the
 * digests: marks each learner's assignment due within a day that they have not handed in with
 * the due date its reminder is for, and queues the email for those who want tasks at once. The
 * mark and the job's key both carry the due date, so two instances (or a retry) make one
 * reminder, and a due date that moves makes one for the new date.
 */
export function queueAssignmentReminders(db: Db): (now: Date) => Promise<void> {
  return async (now) => {
    for (let batch = 0; batch < remindBatchesPerRound; batch++) {
      if ((await remindBatchDue(db, now)) < remindBatch) return;
    }
  };
}

/** One batch of reminders; how many learners' assignments it found due. */
async function remindBatchDue(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + remindBeforeMs).toISOString();
  // Read first: most rounds find nothing and write nothing.
  const due = await db
    .selectFrom("learner_assignment as la")
    .innerJoin("assignment as a", "a.id", "la.assignmentId")
    .select(["la.assignmentId", "la.learnerId", "a.dueAt"])
    .where("a.dueAt", ">", at)
    .where("a.dueAt", "<=", until)
    .where("la.status", "in", remindedStatuses)
    .where((w) => w.or([w("la.reminderDueAt", "is", null), w("la.reminderDueAt", "!=", w.ref("a.dueAt"))]))
    .orderBy("a.dueAt")
    .limit(remindBatch)
    .execute();
  if (due.length === 0) return 0;
  const byAssignment = new Map<string, { dueAt: string; learnerIds: string[] }>();
  for (const row of due) {
    const group = byAssignment.get(row.assignmentId) ?? { dueAt: row.dueAt, learnerIds: [] };
    group.learnerIds.push(row.learnerId);
    byAssignment.set(row.assignmentId, group);
  }
  // No page shows the mark: only these learners' kept answers are let go.
  const learnerIds = [...new Set(due.map((row) => row.learnerId))];
  await writing(db, { privately: learnerIds }, async (trx) => {
    for (const [assignmentId, group] of byAssignment) await remind(trx, assignmentId, group, at);
  });
  return due.length;
}

/**
 * Marks these learners' reminders of one assignment and queues the emails. A reminder counts
 * as made a day before the due date, not when a round got to it: due at the digest hour, it is
 * in the digest the day before, whichever instance's round came first. One whose moment falls
 * in a digest already sent (an assignment set or moved less than a day before it is due) is
 * made now instead, so the next digest lists it.
 */
async function remind(trx: Db, assignmentId: string, group: { dueAt: string; learnerIds: string[] }, at: string) {
  const { dueAt } = group;
  const moment = new Date(Date.parse(dueAt) - remindBeforeMs).toISOString();
  // Checked again in the update: another instance may have marked them meanwhile.
  const marked = await trx
    .updateTable("learner_assignment")
    .set({ reminderDueAt: dueAt, remindedAt: moment })
    .where("assignmentId", "=", assignmentId)
    .where("learnerId", "in", group.learnerIds)
    .where("status", "in", remindedStatuses)
    .where((w) => w.or([w("reminderDueAt", "is", null), w("reminderDueAt", "!=", dueAt)]))
    .returning("learnerId")
    .execute();
  const markedIds = marked.map((row) => row.learnerId);
  if (markedIds.length === 0) return;
  await trx
    .updateTable("learner_assignment")
    .set({ remindedAt: at })
    .where("assignmentId", "=", assignmentId)
    .where("learnerId", "in", markedIds)
    .where("remindedAt", "<=", (eb) =>
      eb
        .selectFrom("email_preference")
        .select("digestFrom")
        .whereRef("email_preference.learnerId", "=", "learner_assignment.learnerId"),
    )
    .execute();
  const queued = await wantingTasksAtOnce(trx, markedIds);
  if (queued.length === 0) return;
  await trx
    .insertInto("mail_job")
    .values(
      queued.map((learnerId) =>
        pendingMailJob({
          key: `assignment-reminder:${assignmentId}:${learnerId}:${dueAt}`,
          kind: "assignment-reminder",
          learnerId,
          refId: assignmentId,
          windowEnd: dueAt,
        }),
      ),
    )
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
}

/** Those of these learners who want tasks emailed at once (no choice stored is 'immediate'). */
async function wantingTasksAtOnce(db: Db, learnerIds: string[]): Promise<string[]> {
  if (learnerIds.length === 0) return [];
  const chosen = await db
    .selectFrom("email_preference")
    .select(["learnerId", assignmentMailAbout])
    .where("learnerId", "in", learnerIds)
    .execute();
  const mode = new Map(chosen.map((row) => [row.learnerId, row[assignmentMailAbout]]));
  return learnerIds.filter((id) => (mode.get(id) ?? "immediate") === "immediate");
}

/**
 * Queues the email about a review just made (in the review's transaction), if the learner wants
 * tasks at once. True when one was queued: the caller tells the mail workers after its commit.
 */
export async function queueReviewEmail(
  trx: Db,
  review: { assignmentId: string; learnerId: string; reviewedAt: string },
): Promise<boolean> {
  if ((await wantingTasksAtOnce(trx, [review.learnerId])).length === 0) return false;
  const inserted = await trx
    .insertInto("mail_job")
    .values(
      pendingMailJob({
        key: `assignment-feedback:${review.assignmentId}:${review.learnerId}:${review.reviewedAt}`,
        kind: "assignment-feedback",
        learnerId: review.learnerId,
        refId: review.assignmentId,
        windowEnd: review.reviewedAt,
      }),
    )
    .onConflict((conflict) => conflict.column("key").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

const learnerAssignment = (db: Db, assignmentId: string, learnerId: string) =>
  db
    .selectFrom("learner_assignment as la")
    .innerJoin("assignment as a", "a.id", "la.assignmentId")
    .select([
      "a.id",
      "a.title",
      "a.dueAt",
      "a.points as maxPoints",
      "la.status",
      "la.points",
      "la.reviewedAt",
      "la.reminderDueAt",
    ])
    .where("la.assignmentId", "=", assignmentId)
    .where("la.learnerId", "=", learnerId)
    .executeTakeFirst();

/** The reminder, written as the assignment is now: none if handed in or the date moved. */
export function reminderMailHandler(settings: NotificationSettings): MailHandler<"assignment-reminder"> {
  return notificationAbout<"assignment-reminder">(
    settings,
    () => assignmentMailAbout,
    async (job, context) => {
      const row = await learnerAssignment(settings.db, job.refId ?? "", job.learnerId);
      if (!row) return skipMail("The assignment was removed.");
      if (row.dueAt !== job.windowEnd) return skipMail("The due date moved.");
      if (!(remindedStatuses as readonly string[]).includes(row.status))
        return skipMail("The learner handed it in before the reminder went.");
      const words = reminderWords(row, settings.timeZone, assignmentLink(settings.appUrl, row.id));
      return sendMail(assignmentEmail(context, words));
    },
  );
}

/** The review's email: what the trainer decided and said, if no later review or hand-in followed. */
export function feedbackMailHandler(settings: NotificationSettings): MailHandler<"assignment-feedback"> {
  return notificationAbout<"assignment-feedback">(
    settings,
    () => assignmentMailAbout,
    async (job, context) => {
      const row = await learnerAssignment(settings.db, job.refId ?? "", job.learnerId);
      if (!row) return skipMail("The assignment was removed.");
      if (row.reviewedAt !== job.windowEnd) return skipMail("Reviewed again since.");
      if (!(reviewedStatuses as readonly string[]).includes(row.status))
        return skipMail("The learner handed it in again since.");
      const comment = await settings.db
        .selectFrom("assignment_comment")
        .select(["authorName", "body"])
        .where("assignmentId", "=", row.id)
        .where("learnerId", "=", job.learnerId)
        .where("kind", "in", ["changes", "accepted"])
        .where("createdAt", "=", row.reviewedAt)
        .executeTakeFirst();
      const facts: FeedbackFacts = { ...row, status: row.status as FeedbackFacts["status"], comment };
      return sendMail(assignmentEmail(context, feedbackWords(facts, assignmentLink(settings.appUrl, row.id))));
    },
  );
}

/**
 * A digest's reminders and reviews (for a learner who put tasks on the digest): those made in
 * its window that still hold when it is written, as the emails would say them.
 */
export function assignmentDigestSource(settings: { appUrl: string; timeZone: string }): DigestSource {
  const reminders = (db: Db, span: DigestSpan) =>
    db
      .selectFrom("learner_assignment as la")
      .innerJoin("assignment as a", "a.id", "la.assignmentId")
      .where("la.learnerId", "in", span.learnerIds)
      .where("la.status", "in", remindedStatuses)
      .where("la.remindedAt", ">", span.from)
      .where("la.remindedAt", "<=", span.to)
      .whereRef("la.reminderDueAt", "=", "a.dueAt");
  const reviews = (db: Db, span: DigestSpan) =>
    db
      .selectFrom("learner_assignment as la")
      .innerJoin("assignment as a", "a.id", "la.assignmentId")
      .where("la.learnerId", "in", span.learnerIds)
      .where("la.status", "in", reviewedStatuses)
      .where("la.reviewedAt", ">", span.from)
      .where("la.reviewedAt", "<=", span.to);
  const asked = (kinds: EmailKind[]) => kinds.includes(assignmentMailAbout);
  return {
    async items(db, window, kinds, limit) {
      if (!asked(kinds)) return [];
      const due = await reminders(db, spanOf(window))
        .select(["a.id", "a.title", "a.dueAt", "la.status", "la.remindedAt as at"])
        .orderBy("la.remindedAt")
        .limit(limit)
        .execute();
      const reviewed = await reviews(db, spanOf(window))
        .leftJoin("assignment_comment as c", (join) =>
          join
            .onRef("c.assignmentId", "=", "la.assignmentId")
            .onRef("c.learnerId", "=", "la.learnerId")
            .onRef("c.createdAt", "=", "la.reviewedAt")
            .on("c.kind", "in", ["changes", "accepted"]),
        )
        .select([
          "a.id",
          "a.title",
          "a.points as maxPoints",
          "la.status",
          "la.points",
          "la.reviewedAt as at",
          "c.authorName",
          "c.body",
        ])
        .orderBy("la.reviewedAt")
        .limit(limit)
        .execute();
      const link = (id: string) => assignmentLink(settings.appUrl, id);
      const items: DigestItem[] = [
        ...due.map((row) => ({
          label: "Reminder",
          html: reminderWords(row, settings.timeZone, link(row.id)).html,
          sentAt: row.at!,
        })),
        ...reviewed.map((row) => {
          const comment = row.authorName === null ? undefined : { authorName: row.authorName, body: row.body ?? "" };
          const facts: FeedbackFacts = { ...row, status: row.status as FeedbackFacts["status"], comment };
          return { label: "Feedback", html: feedbackWords(facts, link(row.id)).html, sentAt: row.at! };
        }),
      ];
      return items.sort((a, b) => (a.sentAt < b.sentAt ? -1 : a.sentAt > b.sentAt ? 1 : 0)).slice(0, limit);
    },
    async count(db, window, kinds) {
      if (!asked(kinds)) return 0;
      let total = 0;
      for (const query of [reminders, reviews]) {
        const { n } = await query(db, spanOf(window))
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirstOrThrow();
        total += Number(n);
      }
      return total;
    },
    async latest(db, span, kinds) {
      const latest = new Map<string, string>();
      if (!asked(kinds)) return latest;
      const rows = [
        ...(await reminders(db, span)
          .select((eb) => ["la.learnerId", eb.fn.max("la.remindedAt").as("at")])
          .groupBy("la.learnerId")
          .execute()),
        ...(await reviews(db, span)
          .select((eb) => ["la.learnerId", eb.fn.max("la.reviewedAt").as("at")])
          .groupBy("la.learnerId")
          .execute()),
      ];
      for (const { learnerId, at } of rows) {
        const before = latest.get(learnerId);
        if (at !== null && (before === undefined || at > before)) latest.set(learnerId, at);
      }
      return latest;
    },
  };
}
