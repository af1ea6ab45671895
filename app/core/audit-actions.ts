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
  "export-fees": "Exported receivables",
  "define-terms": "Defined fee terms",
  "create-batch": "Created batch",
  "batch-terms": "Batch fee terms",
  enrol: "Enrolled",
  "set-seeking": "Seeking a job",
  "set-graduation": "Graduation",
  "add-referral": "Added referral",
  "move-application": "Moved application",
  "verify-offer": "Verified offer",
  "reject-offer": "Rejected offer",
  "record-payment": "Recorded payment",
  "pause-fees": "Paused fees",
  "waive-instalment": "Waived instalment",
  testimonial: "Testimonial",
  "hiring-partner": "Hiring partner",
  "site-page": "Site page",
  "site-section": "Site section draft",
  "site-publish": "Published site",
  course: "Course",
  "sign-up-option": "Sign-up option",
  "enquiry-status": "Enquiry status",
  "enquiry-note": "Enquiry note",
  "enquiry-invite": "Invited enquirer",
  "edit-batch": "Edited batch",
  "bulk-enrol": "Enrolled in bulk",
  "move-learner": "Moved to another batch",
  "remove-from-batch": "Removed from batch",
  "create-assignment": "Set assignment",
  "accept-submission": "Accepted submission",
  "request-changes": "Requested changes",
  "save-view": "Saved view",
  "delete-view": "Deleted view",
  "invite-staff": "Invited staff",
  "dismiss-first-run": "Dismissed the first-run checklist",
} as const;

export type StaffAction = keyof typeof auditActionNames;

/** One line of the audit log as the admins' page shows it. */
export interface AuditEntry {
  id: string;
  actorName: string;
  action: StaffAction;
  detail: string | null;
  target: string;
  count: number;
  createdAt: string;
}
