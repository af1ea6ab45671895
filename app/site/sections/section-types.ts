import { z } from "zod";
import { plain, plainLine } from "~/core/fields";
import { textLimits } from "~/core/text";
import { proofLimits } from "../proof-rules";
import { contrastWithWhite, minimumContrast, ratioText } from "./contrast";

// The public site's editable brand and sections: their shapes, limits and messages, for the
// admin page (checked in the browser first) and the server alike.

/** An image the site stores (app/site/sections/site-images.server.ts), as pages reference it. */
export interface StoredImage {
  /** Its address: immutable, named by its content. */
  src: string;
  width: number;
  height: number;
}

export interface Brand {
  name: string;
  email: string;
  phone: string;
  address: string;
  /** Digits only, with the country code; null: no WhatsApp link. */
  whatsapp: string | null;
  /** `#rrggbb` of the buttons; null: the product's own blue. */
  colour: string | null;
  /** The header's logo (WebP) and the PNG for PDFs and mail; null: the product's mark. */
  logo: (StoredImage & { png: string }) | null;
}

/** A card of a section: a label, a short line and a description, which can be hidden. */
export interface Card {
  label: string;
  value: string;
  description: string;
  shown: boolean;
}

export interface Cta {
  label: string;
  /** `#section`, a path on this site, or an https address. */
  href: string;
}

export type HeroImage =
  | { kind: "built-in" }
  | { kind: "none" }
  | { kind: "custom"; width: number; height: number; srcSet: string; src: string };

export interface CardSection {
  heading: string;
  intro: string;
  cards: Card[];
}

export interface HeroSection extends CardSection {
  eyebrow: string;
  image: HeroImage;
  imageAlt: string;
  ctas: [Cta, Cta];
}

export interface TextSection {
  heading: string;
  body: string;
}

export interface PolicySection {
  body: string;
  /** As the page says it: "1 January 2025". */
  updated: string;
}

export const cardSectionKeys = ["hero", "services", "features", "advantages"] as const;
export type CardSectionKey = (typeof cardSectionKeys)[number];

export const policyKeys = ["privacy", "refund", "terms"] as const;
export type PolicyKey = (typeof policyKeys)[number];

/** Every section's document, by its key. */
export interface SiteSections {
  brand: Brand;
  hero: HeroSection;
  services: CardSection;
  features: CardSection;
  advantages: CardSection;
  "about-us": TextSection;
  privacy: PolicySection;
  refund: PolicySection;
  terms: PolicySection;
}
export type SectionKey = keyof SiteSections;
export const sectionKeys = [
  "brand",
  ...cardSectionKeys,
  "about-us",
  ...policyKeys,
] as const satisfies readonly SectionKey[];

export const sectionNames: Record<SectionKey, string> = {
  brand: "Brand and contact",
  hero: "Welcome header",
  services: "Our Services",
  features: "Our Features",
  advantages: "Your Advantage",
  "about-us": "About Us (footer)",
  privacy: "Privacy Policy",
  refund: "Refund Policy",
  terms: "Terms and Conditions",
};

export const sectionLimits = {
  /** A heading, a card's label or line, a button's label: the editor's name limit. */
  line: textLimits.name,
  /** The hero's headline. */
  headline: 200,
  /** An intro or a card's description: the editor's quote limit. */
  paragraph: 600,
  /** The footer's About Us and a policy page: the editor's page text limit. */
  body: proofLimits.pageBody,
  policy: proofLimits.pageBody,
  address: 300,
  href: 500,
  cards: 24,
  /** An uploaded logo or hero picture, before sharp re-encodes it. */
  maxUploadBytes: 5 * 1024 * 1024,
  /** Pixels sharp will decode at most. */
  maxInputPixels: 50_000_000,
} as const;

export const sectionMessages = {
  saved: "Saved as a draft. Preview it, then publish.",
  published: "Published. Visitors see it now.",
  nothingToPublish: "There is nothing to publish: the drafts are what visitors see.",
  discarded: "Draft discarded.",
  noDraft: "This section has no draft.",
  nameRequired: "Please enter the institute's name.",
  lineTooLong: `A line can be at most ${sectionLimits.line} characters.`,
  headlineRequired: "Please enter the headline.",
  headlineTooLong: `The headline can be at most ${sectionLimits.headline} characters.`,
  paragraphTooLong: `This text can be at most ${sectionLimits.paragraph} characters.`,
  bodyTooLong: `The text can be at most ${sectionLimits.body} characters.`,
  policyRequired: "Please enter the policy's text.",
  policyTooLong: `A policy can be at most ${sectionLimits.policy} characters.`,
  email: "Please enter an email address such as hello@example.com.",
  phone: "Please enter a phone number such as +91 98765 43210.",
  whatsapp: "Please enter a WhatsApp number with its country code, such as +91 98765 43210, or leave it empty.",
  addressRequired: "Please enter the postal address.",
  addressTooLong: `The address can be at most ${sectionLimits.address} characters.`,
  colour: "Please enter a colour as #rrggbb, such as #1e40af, or leave it empty.",
  href: "A button's link must be a section (#training), a page of this site (/about) or an https:// address.",
  ctaLabel: "Give the button a label, or clear its link too to hide it.",
  labelRequired: "Please enter the card's title.",
  tooManyCards: `A section can have at most ${sectionLimits.cards} cards.`,
  noSuchCard: "That card is no longer there. Reload the page.",
  imageAltRequired: "Please describe the picture for people who can't see it.",
  notAnImage: "Please choose a PNG, JPEG or WebP image.",
  imageTooLarge: `The image is too large. The limit is ${sectionLimits.maxUploadBytes / 1024 / 1024} MB.`,
  imageTooManyPixels: `The image has too many pixels. The limit is ${sectionLimits.maxInputPixels / 1_000_000} megapixels.`,
} as const;

/** Why white text on this colour is refused, with its ratio; null when it is fine. */
export function colourProblem(colour: string): string | null {
  const ratio = contrastWithWhite(colour);
  if (ratio === null) return sectionMessages.colour;
  if (ratio >= minimumContrast) return null;
  return `White text on ${colour} has a contrast of ${ratioText(ratio)}; it needs at least ${minimumContrast}:1 (WCAG AA). Choose a darker colour.`;
}

const line = (max: number = sectionLimits.line, tooLong: string = sectionMessages.lineTooLong) =>
  plainLine(max, tooLong).transform((value) => value.trim());
const required = (schema: z.ZodType<string>, message: string) => schema.refine((value) => value.length > 0, message);
const paragraph = (max: number = sectionLimits.paragraph, tooLong: string = sectionMessages.paragraphTooLong) =>
  plain(max, tooLong).transform((value) => value.replace(/\r\n?/g, "\n").trim());
const optional = (schema: z.ZodType<string>) => schema.default("");

export const brandSchema = z.object({
  name: required(line(), sectionMessages.nameRequired),
  email: line(textLimits.email, sectionMessages.email).refine(
    (value) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value),
    sectionMessages.email,
  ),
  phone: line().refine((value) => /^\+?[0-9 ()-]{6,20}$/.test(value), sectionMessages.phone),
  address: required(line(sectionLimits.address, sectionMessages.addressTooLong), sectionMessages.addressRequired),
  whatsapp: optional(line()).refine(
    (value) => value === "" || /^\+?[0-9 ()-]{10,20}$/.test(value),
    sectionMessages.whatsapp,
  ),
  colour: optional(line()).superRefine((value, context) => {
    const problem = value === "" ? null : colourProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  }),
  removeLogo: z.enum(["on"]).optional(),
});

/** A button's link: an in-page section, a path of this site, or an https address. */
const href = optional(line(sectionLimits.href, sectionMessages.href)).refine(
  (value) =>
    value === "" || /^#[a-z][a-z0-9-]*$/i.test(value) || /^\/(?!\/)\S*$/.test(value) || /^https:\/\/\S+$/.test(value),
  sectionMessages.href,
);

export const heroSchema = z
  .object({
    eyebrow: optional(line()),
    heading: required(line(sectionLimits.headline, sectionMessages.headlineTooLong), sectionMessages.headlineRequired),
    intro: optional(paragraph()),
    imageAlt: optional(line(sectionLimits.paragraph, sectionMessages.paragraphTooLong)),
    imageMode: z.enum(["keep", "built-in", "none"]).default("keep"),
    primaryLabel: optional(line()),
    primaryHref: href,
    secondaryLabel: optional(line()),
    secondaryHref: href,
  })
  .refine((value) => (value.primaryLabel === "") === (value.primaryHref === ""), {
    message: sectionMessages.ctaLabel,
    path: ["primaryLabel"],
  })
  .refine((value) => (value.secondaryLabel === "") === (value.secondaryHref === ""), {
    message: sectionMessages.ctaLabel,
    path: ["secondaryLabel"],
  });

export const sectionHeadingSchema = z.object({
  section: z.enum(cardSectionKeys),
  heading: optional(line()),
  intro: optional(paragraph()),
});

const cardIndex = z.coerce
  .number()
  .int()
  .min(0)
  .max(sectionLimits.cards - 1);

export const cardSchema = z.object({
  section: z.enum(cardSectionKeys),
  /** The card's place; none: a new card at the end. */
  index: z.union([z.literal("").transform(() => undefined), cardIndex]).optional(),
  label: required(line(), sectionMessages.labelRequired),
  value: optional(line()),
  description: optional(paragraph()),
  shown: z.enum(["on", ""]).optional(),
});

export const moveCardSchema = z.object({
  section: z.enum(cardSectionKeys),
  index: cardIndex,
  direction: z.enum(["up", "down"]),
});

export const aboutUsSchema = z.object({
  heading: optional(line()),
  body: optional(paragraph(sectionLimits.body, sectionMessages.bodyTooLong)),
});

export const policySchema = z.object({
  policy: z.enum(policyKeys),
  body: required(paragraph(sectionLimits.policy, sectionMessages.policyTooLong), sectionMessages.policyRequired),
});

export const discardSchema = z.object({ section: z.enum(sectionKeys) });

export const imageAccept = "image/png,image/jpeg,image/webp";
