import { z } from "zod";
import { id, plain, plainLine } from "~/core/fields";
import { assignmentLimits, idList } from "~/assignments/assignment-rules";
import { datesInOrder, filter, filterMessages } from "~/learners/learner-filter";

// A batch as the unit of teaching: its course, schedule and trainers, and who is in it.

export const batchMessages = {
  noBatch: "No such batch.",
  noCourse: "No such course in the catalogue.",
  chooseCourse: "Choose the batch's course from the catalogue.",
  scheduleTooLong: "The schedule can be at most 120 characters.",
  notStaff: "Only staff members can be a batch's trainers.",
  selectLearners: "Select learners to enrol.",
  tooMany: `Enrol at most ${assignmentLimits.learnersAtOnce} learners at once.`,
  tooManyMatching: (count: number) =>
    `${count.toLocaleString("en-IN")} learners match: enrol at most ${assignmentLimits.learnersAtOnce} at once. Narrow the search or filters. Nobody was enrolled.`,
  noneMatching: "No learners match the search and filter.",
  gone: (count: number) =>
    count === 1
      ? "1 selected learner no longer exists. Nobody was enrolled."
      : `${count} selected learners no longer exist. Nobody was enrolled.`,
  enrolled: (count: number, already: number, batch: string) =>
    `${count} ${count === 1 ? "learner" : "learners"} enrolled in ${batch}.` +
    (already > 0 ? ` ${already} ${already === 1 ? "was" : "were"} already in it.` : ""),
  noEnrolment: "No such enrolment.",
  agreementAccepted:
    "This learner accepted the batch's pay-after-placement agreement, so the enrolment stays: set their graduation to dropped out instead.",
  alreadyInTarget: "The learner is already in that batch.",
  sameBatch: "Choose a different batch to move to.",
  moved: (name: string, batch: string) => `${name} moved to ${batch}.`,
  removed: (name: string, batch: string) => `${name} removed from ${batch}.`,
  saved: "Batch saved.",
  pasteEmails: "Paste the learners' emails, or choose a CSV file with an email column.",
  pastedTooLong: "That is too much text: paste at most 500 emails at once.",
} as const;

const recordId = id.refine((value) => value.length > 0, "Unknown id.");

export const editBatchSchema = z.object({
  batchId: recordId,
  courseSlug: plain(200, batchMessages.noCourse)
    .default("")
    .refine((value) => value !== "", batchMessages.chooseCourse),
  schedule: plainLine(480, batchMessages.scheduleTooLong)
    .default("")
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .pipe(z.string().max(120, batchMessages.scheduleTooLong)),
  trainerIds: idList,
});

export const enrolLearnersSchema = z.object({
  batchId: recordId,
  learnerIds: idList.refine((ids) => ids.length > 0, batchMessages.selectLearners),
});

/**
 * Every learner the workspace's search and filters match, as many as its confirmation counted
 * (`expectedCount`): the enrolment is refused with the new count if the set changed since.
 */
export const enrolMatchingSchema = z
  .object({
    batchId: recordId,
    ...filter,
    expectedCount: z.coerce.number({ error: "Unknown count." }).int().min(0).max(100_000_000),
  })
  .refine(datesInOrder, { error: filterMessages.datesReversed });

/** Emails pasted (or read from a CSV in the browser) for a dry run. */
export const planEnrolmentSchema = z.object({
  batchId: recordId,
  emails: plain(assignmentLimits.pastedText, batchMessages.pastedTooLong)
    .default("")
    .refine((value) => value.trim() !== "", batchMessages.pasteEmails),
});

export const moveLearnerSchema = z.object({ enrolmentId: recordId, toBatchId: recordId });
export const removeLearnerSchema = z.object({ enrolmentId: recordId });

/**
 * The addresses in pasted text or a CSV file's text: every token with an `@`, in order, each
 * once (a header row such as "email" has none, so it is skipped).
 */
export function emailsIn(text: string): string[] {
  const seen = new Set<string>();
  for (const token of text.split(/[\s,;"']+/)) {
    const email = token.trim().toLowerCase();
    if (email.includes("@") && email.length <= 254) seen.add(email);
  }
  return [...seen];
}
