import { z } from "zod";
import { id, plain, plainLine } from "~/core/fields";
import { handInKinds } from "./statuses";

// The assignment forms' fields, checked in the browser and again on the server, and the texts
// the pages and the server answer with.

export const assignmentLimits = {
  title: 200,
  /** A trainer's comment or a learner's reply. */
  comment: 2_000,
  maxPoints: 1_000,
  /** Learners named in one assignment or one enrolment. */
  learnersAtOnce: 500,
  /** Emails pasted for one enrolment (the dry run lists each). */
  pastedText: 500 * 260,
} as const;

export const assignmentMessages = {
  duePassed: "The due date has passed.",
  accepted: "This assignment is accepted.",
  notFound: "No such assignment.",
  noBatch: "No such batch.",
  titleRequired: "Please enter a title.",
  titleTooLong: `The title can be at most ${assignmentLimits.title} characters.`,
  badDate: "Enter the due date as YYYY-MM-DD.",
  badTime: "Enter the due time as HH:MM, such as 18:00.",
  badPoints: `Points must be a whole number from 1 to ${assignmentLimits.maxPoints}, or empty for none.`,
  chooseHandIn: "Choose what learners hand in: a link, a file, or both.",
  chooseAudience: "Choose a batch, or select learners.",
  tooManyLearners: `At most ${assignmentLimits.learnersAtOnce} learners at once.`,
  noLearners: "Nobody to set it for: the batch has no learners yet.",
  needFile: "Attach your file (a PDF, ZIP or image) first.",
  unknownFile: "That file is not one of your uploads for this assignment. Please upload it again.",
  wrongFileType: "Upload a PDF, a ZIP, or an image (PNG, JPEG or WebP).",
  fileNotMatching: "The file's contents are not a PDF, ZIP or image. Please upload the real file.",
  tooLarge: (mb: number) => `The file is larger than ${mb} MB. Please upload a smaller one.`,
  commentRequired: "Please say what to change.",
  commentTooLong: `Keep it to ${assignmentLimits.comment.toLocaleString("en-IN")} characters.`,
  replyRequired: "Please enter a reply.",
  notWaiting: "This submission was already reviewed.",
  nothingToReview: "This learner has not submitted anything yet.",
  pointsOnlyWithPoints: "This assignment has no points.",
  pointsAbove: (max: number) => `Points can be at most ${max} for this assignment.`,
  created: (title: string, count: number) =>
    `Assignment "${title}" set for ${count} ${count === 1 ? "learner" : "learners"}.`,
  submitted: "Submitted.",
  submittedLate: "Submitted (late).",
  replied: "Reply sent.",
  acceptedDone: "Accepted.",
  changesRequested: "Changes requested.",
} as const;

const recordId = id.refine((value) => value.length > 0, "Unknown id.");

const day = z
  .string()
  .max(10, { error: assignmentMessages.badDate, abort: true })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: assignmentMessages.badDate, abort: true })
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, assignmentMessages.badDate);

const time = z
  .string()
  .max(5, { error: assignmentMessages.badTime, abort: true })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, assignmentMessages.badTime);

/** "" for none, else a whole number of points. */
const optionalPoints = z
  .string()
  .max(5, { error: assignmentMessages.badPoints, abort: true })
  .default("")
  .transform((value, ctx) => {
    const typed = value.trim();
    if (typed === "") return null;
    const points = Number(typed);
    if (!/^\d+$/.test(typed) || points < 1 || points > assignmentLimits.maxPoints) {
      ctx.addIssue({ code: "custom", message: assignmentMessages.badPoints });
      return z.NEVER;
    }
    return points;
  });

/** Ids, comma-separated (a form field holds one string), at most 500. */
export const idList = plain(assignmentLimits.learnersAtOnce * 201, assignmentMessages.tooManyLearners)
  .default("")
  .transform((value, ctx) => {
    const ids = [
      ...new Set(
        value
          .split(",")
          .map((one) => one.trim())
          .filter(Boolean),
      ),
    ];
    if (ids.length > assignmentLimits.learnersAtOnce) {
      ctx.addIssue({ code: "custom", message: assignmentMessages.tooManyLearners });
    } else if (ids.some((one) => one.length > 200)) ctx.addIssue({ code: "custom", message: "Unknown id." });
    return ids;
  });

export const createAssignmentSchema = z
  .object({
    batchId: id.default(""),
    learnerIds: idList,
    title: plainLine(assignmentLimits.title * 4, assignmentMessages.titleTooLong)
      .transform((value) => value.trim().replace(/\s+/g, " "))
      .pipe(
        z
          .string()
          .min(1, assignmentMessages.titleRequired)
          .max(assignmentLimits.title, assignmentMessages.titleTooLong),
      ),
    // Raw HTML may be several times its sanitized size; the stored limit is checked after sanitizing.
    instructions: plain(100_000, "The instructions are too long.").default(""),
    dueDate: day,
    dueTime: time,
    handIn: z.enum(handInKinds, assignmentMessages.chooseHandIn),
    points: optionalPoints,
  })
  .refine((input) => input.batchId !== "" || input.learnerIds.length > 0, {
    error: assignmentMessages.chooseAudience,
    path: ["batchId"],
  });

export type NewAssignment = z.infer<typeof createAssignmentSchema>;

/** The instructions as learners will see them, before the assignment is set. */
export const previewInstructionsSchema = z.object({
  instructions: plain(100_000, "The instructions are too long.").default(""),
});

export const submitSchema = z.object({
  assignmentId: recordId,
  link: z
    .string()
    .max(4_096, { error: "The link is too long. Please use at most 2,048 characters.", abort: true })
    .default(""),
  fileId: id.default(""),
});

const comment = (required: string) =>
  plain(assignmentLimits.comment * 2, assignmentMessages.commentTooLong)
    .default("")
    .transform((value) => value.trim())
    .pipe(z.string().min(1, required).max(assignmentLimits.comment, assignmentMessages.commentTooLong));

export const replySchema = z.object({ assignmentId: recordId, body: comment(assignmentMessages.replyRequired) });

export const reviewSchema = z.discriminatedUnion("decision", [
  z.object({
    decision: z.literal("accept"),
    assignmentId: recordId,
    learnerId: recordId,
    points: optionalPoints,
    comment: plain(assignmentLimits.comment, assignmentMessages.commentTooLong)
      .default("")
      .transform((value) => value.trim()),
  }),
  z.object({
    decision: z.literal("changes"),
    assignmentId: recordId,
    learnerId: recordId,
    comment: comment(assignmentMessages.commentRequired),
  }),
]);

export type Review = z.infer<typeof reviewSchema>;

/** The review queue's batch filter names one batch (not "all" or "mine"): only then are its assignments offered. */
export const isOneBatch = (batch: string) => batch !== "all" && batch !== "mine" && batch !== "";

/**
 * The review queue counts its lists up to this many: past it, across every batch of a large
 * institute, the exact figure would cost each view a read of every such row.
 */
export const queueCountedUpTo = 1_000;

/** A list's count as its heading shows it: "1,000+" once it reaches past what is counted. */
export const queueCountText = (count: number, countedUpTo = queueCountedUpTo) =>
  count > countedUpTo ? `${countedUpTo.toLocaleString("en-IN")}+` : count.toLocaleString("en-IN");
