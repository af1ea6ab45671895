import { z } from "zod";
import {
  controlCharacterMessage,
  hasControlCharacters,
  hasLineBreakOrTab,
  singleLineMessage,
  textLimits,
} from "~/core/text";

// The document settings' fields and limits, for the page and the server alike.

export const signatureLimits = {
  /** The upload: a signature scan is a few KB; this leaves room inside the 1 MiB form limit. */
  maxUploadBytes: 512 * 1024,
  /** The stored image fits this box (pixels), printed about 5 cm wide. */
  maxWidth: 600,
  maxHeight: 200,
  /** The stored PNG, so it adds little to every document's PDF. */
  maxStoredBytes: 100 * 1024,
} as const;

export const signatureAccept = "image/png";

/** The page where an admin sets who signs documents. */
export const signatorySettingsPath = "/staff/documents";

export const settingsMessages = {
  saved: "Document settings saved. New documents will show them.",
  noSignatory: "Set who signs documents first.",
  nameRequired: "Please enter the signatory's name.",
  nameTooLong: `The signatory's name can be at most ${textLimits.name} characters.`,
  titleRequired: "Please enter the signatory's title.",
  titleTooLong: `The signatory's title can be at most ${textLimits.name} characters.`,
  notPng: "Please choose a PNG image for the signature.",
  imageTooLarge: `The signature image is too large. The limit is ${signatureLimits.maxUploadBytes / 1024} KB.`,
  imageTooDetailed:
    "The signature image is too detailed to keep small. Use a plain signature on a white or transparent background.",
} as const;

const line = (required: string, tooLong: string) =>
  z
    .string(required)
    .max(textLimits.name, tooLong)
    .refine((value) => !hasControlCharacters(value), controlCharacterMessage)
    .refine((value) => !hasLineBreakOrTab(value), singleLineMessage)
    .transform((value) => value.trim())
    .refine((value) => value.length > 0, required);

/** The settings form's text fields (the image comes as a file beside them). */
export const settingsSchema = z.object({
  signatoryName: line(settingsMessages.nameRequired, settingsMessages.nameTooLong),
  signatoryTitle: line(settingsMessages.titleRequired, settingsMessages.titleTooLong),
  removeSignature: z
    .enum(["", "1"])
    .optional()
    .transform((value) => value === "1"),
});

export type SettingsFields = z.infer<typeof settingsSchema>;
