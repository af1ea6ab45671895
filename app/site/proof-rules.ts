import { z } from "zod";
import {
  controlCharacterMessage,
  hasControlCharacters,
  hasLineBreakOrTab,
  singleLineMessage,
  textLimits,
} from "~/core/text";

// The public site's proof (testimonials, hiring partners) and page texts: fields, limits and
// messages, for the admin page and the server alike.

export const proofLimits = {
  /** An uploaded photo or logo; sharp re-encodes it much smaller. Inside the 1 MiB form limit. */
  maxUploadBytes: 512 * 1024,
  /** Pixels sharp will decode at most (a 5,000 × 5,000 image), so no upload is a decompression bomb. */
  maxInputPixels: 25_000_000,
  quote: 600,
  consentNote: 200,
  pageBody: 5_000,
  /** What an admin list or the landing page reads at most. */
  listed: 100,
  shownTestimonials: 6,
  shownPartners: 12,
} as const;

export const imageAccept = "image/png,image/jpeg,image/webp";

export const proofMessages = {
  testimonialSaved: "Testimonial saved.",
  testimonialDeleted: "Testimonial deleted.",
  partnerAdded: "Hiring partner added.",
  partnerDeleted: "Hiring partner removed.",
  pageSaved: "Page text saved. Visitors see it now.",
  notFound: "That entry no longer exists. Reload the page.",
  nameRequired: "Please enter a name.",
  nameTooLong: `A name can be at most ${textLimits.name} characters.`,
  courseRequired: "Please enter the course.",
  courseTooLong: `The course can be at most ${textLimits.name} characters.`,
  quoteRequired: "Please enter the quote.",
  quoteTooLong: `The quote can be at most ${proofLimits.quote} characters.`,
  consentNoteRequired: "Please say how the learner gave consent (for example, 'Signed form, 3 May').",
  consentNoteTooLong: `The consent note can be at most ${proofLimits.consentNote} characters.`,
  bodyRequired: "Please enter the page text.",
  bodyTooLong: `The page text can be at most ${proofLimits.pageBody} characters.`,
  logoRequired: "Please choose the partner's logo.",
  notAnImage: "Please choose a PNG, JPEG or WebP image.",
  imageTooLarge: `The image is too large. The limit is ${proofLimits.maxUploadBytes / 1024} KB.`,
} as const;

/** A text field, trimmed; one line unless `multiline`. */
const text = (max: number, required: string, tooLong: string, { multiline = false } = {}) =>
  z
    .string(required)
    .max(max, tooLong)
    .refine((value) => !hasControlCharacters(value), controlCharacterMessage)
    .refine((value) => multiline || !hasLineBreakOrTab(value), singleLineMessage)
    .transform((value) => value.trim())
    .refine((value) => value.length > 0, required);

const id = z.string().uuid("Unknown entry.");

export const testimonialSchema = z
  .object({
    id: id.optional().or(z.literal("").transform(() => undefined)),
    name: text(textLimits.name, proofMessages.nameRequired, proofMessages.nameTooLong),
    course: text(textLimits.name, proofMessages.courseRequired, proofMessages.courseTooLong),
    quote: text(proofLimits.quote, proofMessages.quoteRequired, proofMessages.quoteTooLong, { multiline: true }),
    consent: z.enum(["on"]).optional(),
    consentNote: z
      .string()
      .max(proofLimits.consentNote, proofMessages.consentNoteTooLong)
      .refine((value) => !hasControlCharacters(value), controlCharacterMessage)
      .default(""),
    removePhoto: z.enum(["on"]).optional(),
  })
  .transform((value) => ({ ...value, consentNote: value.consentNote.trim(), consent: value.consent === "on" }))
  .refine((value) => !value.consent || value.consentNote.length > 0, {
    message: proofMessages.consentNoteRequired,
    path: ["consentNote"],
  });

export type TestimonialFields = z.infer<typeof testimonialSchema>;

export const partnerSchema = z.object({
  name: text(textLimits.name, proofMessages.nameRequired, proofMessages.nameTooLong),
});

export const deleteSchema = z.object({ id });

export const pageSchema = z.object({
  slug: z.enum(["about"]),
  body: text(proofLimits.pageBody, proofMessages.bodyRequired, proofMessages.bodyTooLong, { multiline: true }),
});

/** A page's text as paragraphs: blank lines separate them. */
export const paragraphsOf = (body: string) =>
  body
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
