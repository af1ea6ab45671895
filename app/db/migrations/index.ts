import type { Migration } from "kysely/migration";
import * as accounts from "./0001_accounts";
import * as learner from "./0002_learner";
import * as staff from "./0003_staff";
import * as rateLimits from "./0004_rate_limits";
import * as resumeUploads from "./0005_resume_uploads";
import * as learnerSearchTrigrams from "./0006_learner_search_trigrams";
import * as learnerSearchEmailPhone from "./0007_learner_search_email_phone";
import * as roleSince from "./0008_role_since";
import * as offerLetterRead from "./0009_offer_letter_read";
import * as documents from "./0010_documents";
import * as documentSettings from "./0011_document_settings";
import * as signingKeys from "./0012_signing_keys";
import * as learnerImport from "./0013_learner_import";
import * as emailNotifications from "./0014_email_notifications";
import * as accountDeletion from "./0015_account_deletion";
import * as uploadLocks from "./0016_upload_locks";
import * as placement from "./0017_placement";
import * as siteProof from "./0020_site_proof";
import * as catalogue from "./0021_catalogue";
import * as enquiries from "./0022_enquiries";
import * as openBadgeCredential from "./0023_open_badge_credential";
import * as actionKeys from "./0024_action_keys";
import * as changeVersions from "./0025_change_versions";
import * as learningLoop from "./0026_learning_loop";
import * as staffViews from "./0030_staff_views";
import * as learnerTable from "./0031_learner_table";
import * as siteSections from "./0032_site_sections";
import * as instalmentDueOrder from "./0037_instalment_due_order";
import * as learnerFigures from "./0038_learner_figures";
import * as assignmentReminders from "./0039_assignment_reminders";
import * as batchCertificates from "./0040_batch_certificates";
import * as firstRun from "./0041_first_run";
import * as learningLoopReads from "./0042_learning_loop_reads";
import * as feedbackRead from "./0043_feedback_read";
import * as courseFeeTerms from "./0044_course_fee_terms";
import * as auditFilters from "./0046_audit_filters";
import * as overdueFigure from "./0047_overdue_figure";
import * as figuresPerStatement from "./0048_figures_per_statement";
import * as reviewQueueReads from "./0049_review_queue_reads";
import * as assignmentDueIds from "./0050_assignment_due_ids";

/**
 * One ordered set of migrations for SQLite and PostgreSQL. Names sort in the order they run;
 * a migration, once released, is never edited: add a new one, numbered above every released
 * one (a database that ran a later migration refuses one that sorts before it).
 */
export const migrations: Record<string, Migration> = {
  "0001_accounts": accounts,
  "0002_learner": learner,
  "0003_staff": staff,
  "0004_rate_limits": rateLimits,
  "0005_resume_uploads": resumeUploads,
  "0006_learner_search_trigrams": learnerSearchTrigrams,
  "0007_learner_search_email_phone": learnerSearchEmailPhone,
  "0008_role_since": roleSince,
  "0009_offer_letter_read": offerLetterRead,
  "0010_documents": documents,
  "0011_document_settings": documentSettings,
  "0012_signing_keys": signingKeys,
  "0013_learner_import": learnerImport,
  "0014_email_notifications": emailNotifications,
  "0015_account_deletion": accountDeletion,
  "0016_upload_locks": uploadLocks,
  "0017_placement": placement,
  "0020_site_proof": siteProof,
  "0021_catalogue": catalogue,
  "0022_enquiries": enquiries,
  "0023_open_badge_credential": openBadgeCredential,
  "0024_action_keys": actionKeys,
  "0025_change_versions": changeVersions,
  "0026_learning_loop": learningLoop,
  "0030_staff_views": staffViews,
  "0031_learner_table": learnerTable,
  "0032_site_sections": siteSections,
  "0037_instalment_due_order": instalmentDueOrder,
  "0038_learner_figures": learnerFigures,
  "0039_assignment_reminders": assignmentReminders,
  "0040_batch_certificates": batchCertificates,
  "0041_first_run": firstRun,
  "0042_learning_loop_reads": learningLoopReads,
  "0043_feedback_read": feedbackRead,
  "0044_course_fee_terms": courseFeeTerms,
  "0046_audit_filters": auditFilters,
  "0047_overdue_figure": overdueFigure,
  "0048_figures_per_statement": figuresPerStatement,
  "0049_review_queue_reads": reviewQueueReads,
  "0050_assignment_due_ids": assignmentDueIds,
};
