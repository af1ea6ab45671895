import { z } from "zod";
import { id as idField, plain, plainLine } from "~/core/fields";
import { datesInOrder, filter as filterFields, filterMessages, learnerIds } from "~/learners/learner-filter";
import { offerResponses, payKinds, payPeriods } from "./kinds";
import { parseRupees } from "~/core/money";

// The fields of issuing a certificate or an offer letter, checked in the browser's form and
// again by the staff intents; the texts the forms and the server answer with.

export const documentLimits = {
  title: 120,
  description: 500,
  location: 120,
  hours: 10_000,
  /** ₹10 crore a month or a year: more is a typing slip. */
  payRupees: 100_000_000,
} as const;

export const documentMessages = {
  noTitle: "Please enter the certificate's title.",
  titleTooLong: `The title can be at most ${documentLimits.title} characters.`,
  descriptionTooLong: `The description can be at most ${documentLimits.description} characters.`,
  badDate: "Enter dates as YYYY-MM-DD.",
  validBeforeIssue: "'Valid until' must be on or after the issue date.",
  badHours: `Hours must be a whole number from 1 to ${documentLimits.hours.toLocaleString("en-IN")}.`,
  noPosition: "Please enter the position offered.",
  positionTooLong: `The position can be at most ${documentLimits.title} characters.`,
  noLocation: "Please enter the location.",
  locationTooLong: `The location can be at most ${documentLimits.location} characters.`,
  noStartDate: "Please enter the start date.",
  noReplyBy: "Please enter the date to reply by.",
  replyByPast: "The reply-by date can't be before the issue date.",
  badPay: `Enter the amount in rupees, such as 25000 or 25,000.50 (at most ₹${documentLimits.payRupees.toLocaleString("en-IN")}).`,
  payKind: "Choose stipend or CTC.",
  payPeriod: "Choose per month or per year.",
  certificateIssued: (name: string) => `Certificate issued to ${name}.`,
  certificatesQueued: (count: number) =>
    `Issuing certificates to ${count.toLocaleString("en-IN")} ${count === 1 ? "learner" : "learners"}. Each appears on their dashboard as soon as it is made.`,
  offerIssued: (name: string) => `Offer letter issued to ${name}.`,
  staffCannotIssueOffer: "Only admins can issue offer letters.",
  notYours: "No such offer letter.",
  answered: "You have already answered this offer.",
  tooLate: "The date to reply by has passed.",
  revoked: "This offer letter was withdrawn.",
  accepted: "You accepted the offer.",
  declined: "You declined the offer.",
} as const;

/** A 'YYYY-MM-DD' that is a real day. */
const calendarDay = z
  .string()
  .max(10, { error: documentMessages.badDate, abort: true })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: documentMessages.badDate, abort: true })
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, documentMessages.badDate);

/** Empty means "not set". */
const optionalDay = z.union([z.literal("").transform(() => null), calendarDay]).default("");

/** The issue date; empty is today in the institute's time zone (the server fills it in). */
const issuedOn = optionalDay;

const certificateFields = {
  title: plainLine(documentLimits.title * 4, documentMessages.titleTooLong)
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .pipe(z.string().min(1, documentMessages.noTitle).max(documentLimits.title, documentMessages.titleTooLong)),
  description: plain(documentLimits.description * 4, documentMessages.descriptionTooLong)
    .default("")
    .transform((value) => value.trim() || null)
    .pipe(z.string().max(documentLimits.description, documentMessages.descriptionTooLong).nullable()),
  issuedOn,
  validUntil: optionalDay,
  hours: z
    .string()
    .max(6, { error: documentMessages.badHours, abort: true })
    .default("")
    .transform((value, ctx) => {
      if (value.trim() === "") return null;
      const hours = Number(value.trim());
      if (!Number.isInteger(hours) || hours < 1 || hours > documentLimits.hours) {
        ctx.addIssue({ code: "custom", message: documentMessages.badHours });
        return z.NEVER;
      }
      return hours;
    }),
};

const validAfterIssue = (fields: { issuedOn: string | null; validUntil: string | null }) =>
  !fields.validUntil || !fields.issuedOn || fields.validUntil >= fields.issuedOn;

/** A certificate's own fields (the job keeps these as JSON). */
export const certificateSchema = z
  .object(certificateFields)
  .refine(validAfterIssue, { error: documentMessages.validBeforeIssue, path: ["validUntil"] });

export type CertificateFields = z.infer<typeof certificateSchema>;

/** Issue a certificate to one learner or the ticked ones (`learnerIds`, comma-separated). */
export const issueCertificateSchema = z
  .object({ ...certificateFields, learnerIds })
  .refine(validAfterIssue, { error: documentMessages.validBeforeIssue, path: ["validUntil"] });

/** Issue a certificate to every learner the search and course match, as many as the confirmation said. */
export const issueCertificatesMatchingSchema = z
  .object({
    ...certificateFields,
    ...filterFields,
    expectedCount: z.coerce.number({ error: "Unknown count." }).int().min(0).max(100_000_000),
  })
  .refine(validAfterIssue, { error: documentMessages.validBeforeIssue, path: ["validUntil"] })
  .refine(datesInOrder, { error: filterMessages.datesReversed });

/** The most learners one batch's certificates go to at once (a batch's learner list shows 1,000). */
export const batchCertificateLimit = 1_000;

export const batchCertificateMessages = {
  noneQualify: "No learner of this batch has all assignments accepted yet.",
  allHaveIt: "Every learner of this batch who has all assignments accepted already has its certificate.",
  changed: "The learners who qualify have changed. Check the list again before issuing.",
  running: "This batch's certificates are being issued. Try again when they are done.",
  tooMany: `A batch's certificates go to at most ${batchCertificateLimit.toLocaleString("en-IN")} learners at once.`,
} as const;

/**
 * Issue a certificate to the learners of a batch who have all its assignments accepted:
 * `learnerIds` are those the confirmation listed to receive it, checked again on the server.
 */
export const issueBatchCertificatesSchema = z
  .object({
    ...certificateFields,
    batchId: idField.refine((value) => value.length > 0, "Unknown id."),
    learnerIds: plain(batchCertificateLimit * 201, batchCertificateMessages.tooMany)
      .default("")
      .transform((value, ctx) => {
        const ids = [...new Set(value.split(",").filter(Boolean))];
        if (ids.length > batchCertificateLimit)
          ctx.addIssue({ code: "custom", message: batchCertificateMessages.tooMany });
        else if (ids.some((one) => one.length > 200)) ctx.addIssue({ code: "custom", message: "Unknown id." });
        return ids;
      }),
  })
  .refine(validAfterIssue, { error: documentMessages.validBeforeIssue, path: ["validUntil"] });

const position = plainLine(documentLimits.title * 4, documentMessages.positionTooLong)
  .transform((value) => value.trim().replace(/\s+/g, " "))
  .pipe(z.string().min(1, documentMessages.noPosition).max(documentLimits.title, documentMessages.positionTooLong));

/** An offer letter (admins): the position and its terms; the body is formatted like a message. */
export const issueOfferLetterSchema = z
  .object({
    learnerId: idField.pipe(z.string().min(1, "Select a learner first.")),
    title: position,
    issuedOn,
    startDate: z.string({ error: documentMessages.noStartDate }).min(1, documentMessages.noStartDate).pipe(calendarDay),
    location: plainLine(documentLimits.location * 4, documentMessages.locationTooLong)
      .transform((value) => value.trim().replace(/\s+/g, " "))
      .pipe(
        z.string().min(1, documentMessages.noLocation).max(documentLimits.location, documentMessages.locationTooLong),
      ),
    payKind: z.enum(payKinds, { error: documentMessages.payKind }),
    payAmount: z
      .string({ error: documentMessages.badPay })
      .max(30, { error: documentMessages.badPay, abort: true })
      .transform((value, ctx) => {
        const paise = parseRupees(value, { minPaise: 1, maxPaise: documentLimits.payRupees * 100 });
        if (paise === null) {
          ctx.addIssue({ code: "custom", message: documentMessages.badPay });
          return z.NEVER;
        }
        return paise;
      }),
    payPeriod: z.enum(payPeriods, { error: documentMessages.payPeriod }),
    replyBy: z.string({ error: documentMessages.noReplyBy }).min(1, documentMessages.noReplyBy).pipe(calendarDay),
    /** Typed like a message: plain text or HTML, sanitized once before it is stored. */
    body: plain(100_000, "That text is too long.").default(""),
  })
  .refine((fields) => !fields.issuedOn || fields.replyBy >= fields.issuedOn, {
    error: documentMessages.replyByPast,
    path: ["replyBy"],
  });

export type OfferLetterFields = z.infer<typeof issueOfferLetterSchema>;

/** The learner's answer to an offer letter (the dashboard's `answer-offer`). */
export const answerOfferSchema = z.object({
  documentId: idField.pipe(z.string().min(1, documentMessages.notYours)),
  answer: z.enum(offerResponses, { error: "Answer accept or decline." }),
});
