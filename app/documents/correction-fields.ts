import { z } from "zod";
import { id, plain, plainLine } from "~/core/fields";
import { textLimits } from "~/core/text";
import { certificateSchema, issueOfferLetterSchema } from "./document-fields";

// Revoking and reissuing a document (admins, on the learner's page): the fields, checked in the
// dialog and again by the staff intents, and the texts both answer with.

export const revokeReasonMax = 500;

export const correctionMessages = {
  noReason: "Please give the reason for revoking.",
  reasonTooLong: `The reason can be at most ${revokeReasonMax} characters.`,
  noHolder: "Please enter the holder's name.",
  holderTooLong: `The holder's name can be at most ${textLimits.name} characters.`,
  gone: "That document no longer exists.",
  alreadyRevoked: "That document was already revoked.",
  revokedNoReissue: "A revoked document can't be reissued. Issue a new one instead.",
  unchanged: "Nothing was changed. Correct a field to reissue the document.",
  changedMeanwhile: "The document was changed meanwhile. Look at it again and retry.",
  revoked: (code: string) => `${code} revoked. Its verify page now says Revoked.`,
  reissued: (code: string) => `${code} reissued with a new PDF. Its code and address stay the same.`,
} as const;

const documentRef = {
  learnerId: id.pipe(z.string().min(1, "Select a learner first.")),
  documentId: id.pipe(z.string().min(1, correctionMessages.gone)),
};

export const revokeSchema = z.object({
  ...documentRef,
  reason: plain(revokeReasonMax * 4, correctionMessages.reasonTooLong)
    .default("")
    .transform((value) => value.trim())
    .pipe(z.string().min(1, correctionMessages.noReason).max(revokeReasonMax, correctionMessages.reasonTooLong)),
});

const correctionRef = z.object({
  ...documentRef,
  holderName: plainLine(textLimits.name * 4, correctionMessages.holderTooLong)
    .default("")
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .pipe(z.string().min(1, correctionMessages.noHolder).max(textLimits.name, correctionMessages.holderTooLong)),
});

/** A certificate's corrected fields: the same rules as issuing one. */
export const reissueCertificateSchema = z.intersection(correctionRef, certificateSchema);

/** An offer letter's corrected fields: the same rules as issuing one. */
export const reissueOfferLetterSchema = z.intersection(correctionRef, issueOfferLetterSchema);

export type CertificateCorrection = z.infer<typeof reissueCertificateSchema>;
export type OfferLetterCorrection = z.infer<typeof reissueOfferLetterSchema>;
