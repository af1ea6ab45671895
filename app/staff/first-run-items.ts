import { z } from "zod";

/** The first-run checklist's items, in order: what it asks, and where that is done. */
export const firstRunItems = [
  { key: "brand", label: "Set the institute's name, logo, colour and contact details", to: "/staff/site" },
  { key: "signatory", label: "Set who signs certificates and offer letters", to: "/staff/documents" },
  { key: "courses", label: "Check the courses against the sign-up form's options", to: "/staff/courses" },
  { key: "feeTerms", label: "Give your courses their pay-after-placement fee terms", to: "/staff/courses" },
  { key: "proof", label: "Add a testimonial and a hiring partner", to: "/staff/site" },
  { key: "staff", label: "Invite your staff", to: "/staff/people#invite" },
] as const;

export type FirstRunItemKey = (typeof firstRunItems)[number]["key"];

export const dismissFirstRunSchema = z.object({});
