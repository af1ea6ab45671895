import { z } from "zod";
import {
  controlCharacterMessage,
  hasControlCharacters,
  hasLineBreakOrTab,
  singleLineMessage,
  textLimits,
} from "~/core/text";

// The course catalogue and the sign-up course options that admins edit on /staff/courses:
// fields, limits and messages, for the editor and the server alike.

export const catalogueLimits = {
  title: textLimits.name,
  duration: 40,
  details: 600,
  /** As typed: digits with Indian or Western commas, maybe a ₹ sign. */
  priceTyped: 20,
  /** ₹1,00,00,000: well above any course, far below what an integer column holds. */
  maxPrice: 10_000_000,
  paymentUrl: 2_048,
  optionLabel: textLimits.name,
  /** The most courses and sign-up options kept; the landing page shows every shown course. */
  courses: 60,
  options: 200,
} as const;

export const catalogueMessages = {
  courseSaved: "Course saved. Visitors see it now.",
  courseAdded: "Course added. Visitors see it now.",
  courseMoved: "Course moved. Visitors see the new order now.",
  optionAdded: "Sign-up option added.",
  optionRemoved: "Sign-up option removed.",
  optionMoved: "Sign-up option moved.",
  courseGone: "That course no longer exists. Reload the page.",
  optionGone: "That sign-up option no longer exists. Reload the page.",
  titleRequired: "Please enter the course title.",
  titleTooLong: `A course title can be at most ${catalogueLimits.title} characters.`,
  titleTaken: "Another course already has this title.",
  durationRequired: "Please enter the duration, for example '6 Months'.",
  durationTooLong: `The duration can be at most ${catalogueLimits.duration} characters.`,
  detailsRequired: "Please enter a short description.",
  detailsTooLong: `The description can be at most ${catalogueLimits.details} characters.`,
  priceInvalid: "Write the price in whole rupees, for example 15500 or 15,500, or leave it empty for no price.",
  priceTooHigh: "The price can be at most ₹1,00,00,000.",
  paymentUrlInvalid: "The payment link must be a full http:// or https:// address, or empty for the default.",
  paymentUrlTooLong: `The payment link can be at most ${catalogueLimits.paymentUrl} characters.`,
  optionRequired: "Please enter the course name.",
  optionTooLong: `A sign-up option can be at most ${catalogueLimits.optionLabel} characters.`,
  optionTaken: "The sign-up form already offers this course.",
  tooManyCourses: `The catalogue holds at most ${catalogueLimits.courses} courses. Hide or change one instead.`,
  tooManyOptions: `The sign-up form offers at most ${catalogueLimits.options} courses.`,
  lastOption: "The sign-up form needs at least one course.",
  cannotMove: "It is already at that end of the list.",
  shownInvalid: "Shown on the landing page is a checkbox: ticked sends 'on', unticked sends nothing.",
  termsGone: "Those fee terms no longer exist. Reload the page.",
  termsInUse: (batches: number) =>
    `${batches === 1 ? "1 pay-after-placement batch follows" : `${batches} pay-after-placement batches follow`} this course's fee terms: give ${batches === 1 ? "it" : "them"} fee terms of ${batches === 1 ? "its" : "their"} own on the batch page first, or choose other terms for the course.`,
} as const;

/** A text field, its whitespace runs made single spaces; one line unless `multiline`. */
const text = (max: number, required: string, tooLong: string, { multiline = false } = {}) =>
  z
    .string(required)
    .max(max, tooLong)
    .refine((value) => !hasControlCharacters(value), controlCharacterMessage)
    .refine((value) => multiline || !hasLineBreakOrTab(value), singleLineMessage)
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .refine((value) => value.length > 0, required);

/** Whole rupees as typed ("15500", "15,500", "₹1,15,500"); empty is no price. */
const price = z
  .string(catalogueMessages.priceInvalid)
  .max(catalogueLimits.priceTyped, catalogueMessages.priceInvalid)
  .transform((value) => value.replace(/[\s,₹]/g, ""))
  .refine((value) => /^\d*$/.test(value), catalogueMessages.priceInvalid)
  .transform((value) => (value === "" ? null : Number(value)))
  .refine((value) => value === null || value <= catalogueLimits.maxPrice, catalogueMessages.priceTooHigh);

/** Empty means PAYMENT_URL; otherwise an absolute http(s) address. */
const paymentUrl = z
  .string(catalogueMessages.paymentUrlInvalid)
  .max(catalogueLimits.paymentUrl, catalogueMessages.paymentUrlTooLong)
  .transform((value) => value.trim())
  .refine((value) => value === "" || isHttpUrl(value), catalogueMessages.paymentUrlInvalid)
  .transform((value) => (value === "" ? null : value));

export function isHttpUrl(value: string): boolean {
  if (hasControlCharacters(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

const slug = z
  .string("Unknown course.")
  .max(80, "Unknown course.")
  .regex(/^[a-z0-9-]+$/, "Unknown course.");

const courseFields = {
  title: text(catalogueLimits.title, catalogueMessages.titleRequired, catalogueMessages.titleTooLong),
  duration: text(catalogueLimits.duration, catalogueMessages.durationRequired, catalogueMessages.durationTooLong),
  price,
  details: text(catalogueLimits.details, catalogueMessages.detailsRequired, catalogueMessages.detailsTooLong, {
    multiline: true,
  }),
  // Prefault: a form without the field gets "" parsed like typed text (null), never a raw "".
  paymentUrl: paymentUrl.prefault(""),
  shown: z.enum(["on"], catalogueMessages.shownInvalid).optional(),
  /** The course's pay-after-placement fee terms; empty for none. */
  termsId: z
    .string(catalogueMessages.termsGone)
    .max(200, catalogueMessages.termsGone)
    .default("")
    .transform((value) => (value === "" ? null : value)),
};

/** A checkbox sends "on" when ticked and nothing when not. */
const withShown = <T extends { shown?: "on" }>({ shown, ...rest }: T) => ({ ...rest, shown: shown === "on" });

export const saveCourseSchema = z.object({ slug, ...courseFields }).transform(withShown);
export const addCourseSchema = z.object(courseFields).transform(withShown);

export type CourseFields = z.infer<typeof addCourseSchema>;

const direction = z.enum(["up", "down"], "Say which way to move it.");

export const moveCourseSchema = z.object({ slug, direction });

const optionLabel = text(
  catalogueLimits.optionLabel,
  catalogueMessages.optionRequired,
  catalogueMessages.optionTooLong,
);

export const addOptionSchema = z.object({ label: optionLabel });
export const removeOptionSchema = z.object({ label: optionLabel });
export const moveOptionSchema = z.object({ label: optionLabel, direction });

/** A stable address part for a new course's title: "C# & .NET" → "c-net". */
export function slugOf(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || "course";
}

/** The Register Now address: the payment link with `course=<slug>` added to whatever query it has. */
export function registerUrl(paymentLink: string, slug: string): string {
  const url = new URL(paymentLink);
  url.searchParams.set("course", slug);
  return url.toString();
}
