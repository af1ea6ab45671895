// Every kind of staff action the audit log records, with the name the log shows for it.

export const auditActionNames = {
  send: "Sent",
  "bulk-send": "Bulk sent",
  "send-selected": "Sent to selected",
  clear: "Cleared",
  "delete-message": "Deleted one",
  "offer-letter": "Offer letter",
  "role-change": "Role change",
  "issue-certificate": "Issued certificate",
  "issue-offer-letter": "Issued offer letter",
  "document-settings": "Document settings",
  "revoke-document": "Revoked document",
  "reissue-document": "Reissued document",
  export: "Exported learners",
  import: "Imported learners",
  testimonial: "Testimonial",
  "hiring-partner": "Hiring partner",
  "site-page": "Site page",
} as const;

export type StaffAction = keyof typeof auditActionNames;
