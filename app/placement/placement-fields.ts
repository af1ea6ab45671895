import { z } from "zod";
import { id, plain, plainLine } from "~/core/fields";
import { feeLimits } from "./fees";
import { formatRupees, parseRupees } from "~/core/money";
import { applicationSources, applicationStages, graduations } from "./stages";

// The placement forms' fields, checked in the browser and again on the server, and the texts
// the pages and the server answer with.

export const placementLimits = {
  name: 120,
  company: 120,
  role: 120,
  location: 120,
  reference: 120,
  reason: 500,
  pauseRule: 1_000,
  /** The offer letter: a PDF. */
  offerFileBytes: 5 * 1024 * 1024,
} as const;

export const placementMessages = {
  badDate: "Enter dates as YYYY-MM-DD.",
  badRupees: (what: string) =>
    `Enter ${what} in rupees, such as 600000 or 6,00,000.50 (at most ${formatRupees(feeLimits.maxCtcPaise)}).`,
  badPercent: (what: string) => `Enter ${what} as a percentage from 0 to 100, such as 18 or 12.5.`,
  required: (what: string) => `Please enter ${what}.`,
  tooLong: (what: string, max: number) => `${what} can be at most ${max} characters.`,
  endBeforeStart: "The end date must be on or after the start date.",
  courseHasNoTerms: (course: string) =>
    `${course || "The batch's course"} has no fee terms: choose fee terms for the batch, or give the course fee terms under Courses.`,
  upfrontHasNoTerms: "A batch paid upfront has no fee terms.",
  termsUnchanged: "The batch already uses those fee terms.",
  staffCannotSetBatchTerms: "Only admins can change a batch's fee terms.",
  batchTermsSet: (batch: string, terms: string) => `${batch} now uses ${terms}, overriding its course's terms.`,
  batchFollowsCourse: (batch: string) => `${batch} now uses its course's fee terms.`,
  unknownBatch: "No such batch.",
  unknownCourse: "No such course in the catalogue.",
  chooseCourse: "Choose the batch's course from the catalogue.",
  unknownTerms: "No such fee terms.",
  unknownEnrolment: "No such enrolment.",
  unknownApplication: "No such application.",
  unknownInstalment: "No such instalment.",
  notALearner: "No learner has that id.",
  alreadyEnrolled: "The learner is already enrolled in that batch.",
  batchNameTaken: "A batch with that name already exists.",
  notPap: "Only a pay-after-placement batch has an agreement.",
  alreadyAccepted: "You have already accepted this agreement.",
  seekingFrozen: "'Seeking a job' can't change after graduation: the reports use the value at graduation.",
  needsOffer: "Record the offer first.",
  offerVerified: "The offer was verified and can't be changed.",
  offerNotPending: "Only an offer waiting for verification can be verified or rejected.",
  offerFile: "Attach the offer letter as a PDF of at most 5 MB.",
  offerNotPdf: "Upload the offer letter as a PDF file.",
  joiningBeforeOffer: "The joining date can't be before the offer date.",
  overpaid: (left: string) => `That is more than the ${left} left to pay on this instalment.`,
  noAmount: "The amount must be more than ₹0.",
  instalmentClosed: "This instalment is already paid or waived.",
  pauseInPast: "The pause must last until today or later.",
  noSchedule: "This learner has no instalments to pause.",
  staffCannotWaive: "Only admins can waive an instalment.",
  staffCannotDefineTerms: "Only admins can define fee terms.",
  batchCreated: (name: string) => `Batch ${name} created.`,
  termsCreated: (name: string) => `Fee terms ${name} saved.`,
  enrolled: (name: string, batch: string) => `${name} enrolled in ${batch}.`,
  saved: "Saved.",
  applicationAdded: "Application added.",
  moved: (stage: string) => `Moved to ${stage}.`,
  offerRecorded: "Offer recorded. The institute will verify it.",
  offerVerifiedDone: "Offer verified.",
  offerRejected: "Offer rejected.",
  agreementAccepted: "Agreement accepted.",
  paymentRecorded: "Payment recorded.",
  paused: "Fees paused.",
  waived: "Instalment waived.",
  consentGiven: "Thank you. You can withdraw this at any time.",
  consentWithdrawn: "Consent withdrawn. Your name and photo are no longer shown.",
} as const;

/** A 'YYYY-MM-DD' that is a real day. */
export const calendarDay = z
  .string()
  .max(10, { error: placementMessages.badDate, abort: true })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: placementMessages.badDate, abort: true })
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, placementMessages.badDate);

/** "18" or "12.5" (%) as basis points, by string arithmetic. */
export function parsePercent(typed: string): number | null {
  if (typed.length > 10) return null;
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(typed.trim().replace(/%$/, "").trim());
  if (!match) return null;
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return basisPoints <= feeLimits.maxBasisPoints ? basisPoints : null;
}

/** A text field, its whitespace runs made single spaces; one line unless `multiline`. */
const words = (what: string, max: number, { multiline = false } = {}) =>
  (multiline ? plain : plainLine)(max * 4, placementMessages.tooLong(what, max))
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .pipe(
      z.string().min(1, placementMessages.required(what.toLowerCase())).max(max, placementMessages.tooLong(what, max)),
    );

const rupees = (what: string, maxPaise: number = feeLimits.maxCtcPaise) =>
  z
    .string()
    .max(40, { error: placementMessages.badRupees(what), abort: true })
    .default("")
    .transform((value, ctx) => {
      const paise = parseRupees(value, { maxPaise });
      if (paise === null) {
        ctx.addIssue({ code: "custom", message: placementMessages.badRupees(what) });
        return z.NEVER;
      }
      return paise;
    });

/** Empty means none. */
const optionalRupees = (what: string, maxPaise: number = feeLimits.maxCtcPaise) =>
  z.union([z.literal("").transform(() => null), rupees(what, maxPaise)]).prefault("");

const percent = (what: string) =>
  z
    .string()
    .max(10, { error: placementMessages.badPercent(what), abort: true })
    .transform((value, ctx) => {
      const basisPoints = parsePercent(value);
      if (basisPoints === null) {
        ctx.addIssue({ code: "custom", message: placementMessages.badPercent(what) });
        return z.NEVER;
      }
      return basisPoints;
    });

const wholeNumber = (what: string, min: number, max: number) =>
  z
    .string()
    .max(4, { error: `${what} must be a whole number from ${min} to ${max}.`, abort: true })
    .transform((value, ctx) => {
      const number = Number(value.trim());
      if (value.trim() === "" || !Number.isInteger(number) || number < min || number > max) {
        ctx.addIssue({ code: "custom", message: `${what} must be a whole number from ${min} to ${max}.` });
        return z.NEVER;
      }
      return number;
    });

/** A record's id: never empty (an empty one names nothing, and is refused as input). */
const recordId = id.refine((value) => value.length > 0, "Unknown id.");

const yesNo = z.enum(["yes", "no"], "Choose yes or no.").transform((value) => value === "yes");

export const createTermsSchema = z
  .object({
    name: words("The name", placementLimits.name),
    threshold: rupees("the CTC threshold"),
    feeKind: z.enum(["fixed", "percent"], "Choose a fixed fee or a percentage of the fixed CTC."),
    feeAmount: optionalRupees("the fixed fee", feeLimits.maxAmountPaise),
    feePercent: z.string().max(10).default(""),
    cap: optionalRupees("the cap", feeLimits.maxAmountPaise),
    instalments: wholeNumber("The number of instalments", 1, feeLimits.maxInstalments),
    windowMonths: wholeNumber("The placement window", 1, feeLimits.maxWindowMonths),
    gst: percent("the GST rate"),
    pauseRule: words("The pause rule", placementLimits.pauseRule, { multiline: true }),
  })
  .transform((fields, ctx) => {
    if (fields.feeKind === "fixed") {
      if (!fields.feeAmount) {
        ctx.addIssue({ code: "custom", message: "Enter the fixed fee in rupees.", path: ["feeAmount"] });
        return z.NEVER;
      }
      return { ...fields, fee: { kind: "fixed" as const, amountPaise: fields.feeAmount } };
    }
    const basisPoints = parsePercent(fields.feePercent);
    if (!basisPoints) {
      ctx.addIssue({ code: "custom", message: placementMessages.badPercent("the fee"), path: ["feePercent"] });
      return z.NEVER;
    }
    return { ...fields, fee: { kind: "percent" as const, basisPoints } };
  });

export const createBatchSchema = z
  .object({
    name: words("The batch name", placementLimits.name),
    courseSlug: plain(200, placementMessages.unknownCourse)
      .default("")
      .refine((value) => value !== "", placementMessages.chooseCourse),
    schedule: plainLine(placementLimits.name * 4, placementMessages.tooLong("The schedule", placementLimits.name))
      .default("")
      .transform((value) => value.trim().replace(/\s+/g, " "))
      .pipe(z.string().max(placementLimits.name, placementMessages.tooLong("The schedule", placementLimits.name))),
    startDate: calendarDay,
    endDate: calendarDay,
    payment: z.enum(["pap", "upfront"], "Choose pay after placement or paid upfront."),
    /** Its own terms, overriding its course's; empty: the course's. */
    termsId: plain(200, "Unknown fee terms.").default(""),
  })
  .refine((batch) => batch.endDate >= batch.startDate, { error: placementMessages.endBeforeStart, path: ["endDate"] });

export const setBatchTermsSchema = z.object({
  batchId: recordId,
  /** Empty: the batch follows its course's terms. */
  termsId: plain(200, "Unknown fee terms.").default(""),
});

export const enrolSchema = z.object({ learnerId: recordId, batchId: recordId, seeking: yesNo });
export const setSeekingSchema = z.object({ enrolmentId: recordId, seeking: yesNo });
export const setGraduationSchema = z.object({
  enrolmentId: recordId,
  graduation: z.enum(graduations, "Choose a graduation status."),
});

const applicationFields = {
  company: words("The company", placementLimits.company),
  role: words("The role", placementLimits.role),
};
export const addApplicationSchema = z.object({
  ...applicationFields,
  source: z.enum(applicationSources, "Choose institute referral or own application."),
});
export const addReferralSchema = z.object({ ...applicationFields, learnerId: recordId });
export const moveApplicationSchema = z.object({
  applicationId: recordId,
  stage: z.enum(applicationStages, "Choose a stage."),
});

export const offerSchema = z
  .object({
    applicationId: recordId,
    fixedCtc: rupees("the fixed CTC a year"),
    variableCtc: optionalRupees("the variable pay a year").transform((value) => value ?? 0),
    location: words("The location", placementLimits.location),
    offerDate: calendarDay,
    joiningDate: calendarDay,
  })
  .refine((offer) => offer.joiningDate >= offer.offerDate, {
    error: placementMessages.joiningBeforeOffer,
    path: ["joiningDate"],
  });

export const verifyOfferSchema = z.object({ applicationId: recordId });
export const rejectOfferSchema = z.object({
  applicationId: recordId,
  reason: words("The reason", placementLimits.reason),
});

export const paymentSchema = z.object({
  instalmentId: recordId,
  amount: rupees("the amount", feeLimits.maxAmountPaise * 2),
  paidOn: calendarDay,
  reference: words("The reference", placementLimits.reference),
});
export const pauseSchema = z.object({
  enrolmentId: recordId,
  reason: words("The reason", placementLimits.reason),
  until: calendarDay,
});
export const waiveSchema = z.object({ instalmentId: recordId, reason: words("The reason", placementLimits.reason) });

export const acceptAgreementSchema = z.object({ enrolmentId: recordId });
