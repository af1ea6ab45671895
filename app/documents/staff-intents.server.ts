import { intent } from "~/core/intent";
import { writeLimits } from "~/security/rate-limit.server";
import { reissueCertificateSchema, reissueOfferLetterSchema, revokeSchema } from "./correction-fields";
import { reissueDocument, revokeDocument } from "./corrections.server";
import { needsSignatory } from "./settings.server";
import { issueCertificate, issueCertificatesToMatching, issueOfferLetter } from "./document-actions.server";
import {
  documentMessages,
  issueCertificateSchema,
  issueCertificatesMatchingSchema,
  issueOfferLetterSchema,
} from "./document-fields";

/** Issuing and correcting documents, by the `intent` their forms send (the staff gate combines the tables). */
export const documentIntents = {
  "issue-certificate": intent({ need: "staff", fields: issueCertificateSchema, run: needsSignatory(issueCertificate) }),
  "issue-certificates-matching": intent({
    need: "staff",
    fields: issueCertificatesMatchingSchema,
    ownLimit: writeLimits.bulkSend,
    run: needsSignatory(issueCertificatesToMatching),
  }),
  "issue-offer-letter": intent({
    need: "admin",
    fields: issueOfferLetterSchema,
    staffRefusal: () => documentMessages.staffCannotIssueOffer,
    run: needsSignatory(issueOfferLetter),
  }),
  "revoke-document": intent({ need: "admin", fields: revokeSchema, run: revokeDocument }),
  "reissue-certificate": intent({
    need: "admin",
    fields: reissueCertificateSchema,
    run: needsSignatory(reissueDocument),
  }),
  "reissue-offer-letter": intent({
    need: "admin",
    fields: reissueOfferLetterSchema,
    run: needsSignatory(reissueDocument),
  }),
};
