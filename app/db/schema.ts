import type { EmailKind, EmailMode, MailJobKind } from "../mail/email-kinds.ts";
import type { DocumentKind, OfferResponse, PayKind, PayPeriod } from "../documents/kinds.ts";
import type { MessageKind } from "../messages/kinds.ts";
import type { StaffAction } from "../core/audit-actions.ts";
import type { CallbackTime, EnquiryStatus } from "../enquiries/enquiry-fields.ts";
import type { ApplicationStage, Graduation } from "../placement/stages.ts";
import type { AssignmentStatus, HandIn } from "../assignments/statuses.ts";
import type { ColumnType } from "kysely";

/**
 * The database as Kysely sees it. One interface per table; the migrations in ./migrations
 * create exactly these columns on SQLite and PostgreSQL.
 */

/**
 * A point in time. SQLite keeps ISO-8601 text; PostgreSQL keeps timestamptz, which `pg` reads
 * as a Date. Write ISO strings (or Dates); read with `new Date(value)`, which takes both.
 */
export type Timestamp = ColumnType<string | Date, string | Date, string | Date>;

/** A boolean: 0/1 on SQLite, true/false on PostgreSQL. Read with `Boolean(value)`. */
export type Flag = ColumnType<boolean | number, boolean, boolean>;

/** better-auth's user, with this product's fields. */
export interface UserTable {
  id: string;
  /** better-auth's display name; sign-up sets it to the username. */
  name: string;
  email: string;
  emailVerified: Flag;
  image: string | null;
  /** When the account was created (the spec's createdAt). */
  createdAt: Timestamp;
  updatedAt: Timestamp;
  username: string | null;
  phone: string | null;
  course: string | null;
  gender: string | null;
  /** Null or empty for learners; "admin" or another staff value. Set by admins and `npm run role`. */
  role: string | null;
  /** When the role last changed (ISO-8601); null if it never has. */
  roleChangedAt: string | null;
  /** When they last made a signed-in request (ISO-8601, written at most every few minutes); null if never since. */
  lastActiveAt: string | null;
  /** 1 when they have uploaded a resume, else 0 (kept by triggers, migration 0038: never written here). */
  hasResume: ColumnType<number, never, never>;
  /** Their unread messages plus an unread offer letter (kept by triggers). */
  unreadCount: ColumnType<number, never, never>;
  /** The first of their batches by name, or null (kept by triggers). */
  firstBatch: ColumnType<string | null, never, never>;
  /**
   * Their assignments past due and still waiting for them (not started, changes requested): kept
   * by triggers and by the pass as due dates pass (migration 0047, decision 025).
   */
  overdueCount: ColumnType<number, never, number>;
}

export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Timestamp | null;
  refreshTokenExpiresAt: Timestamp | null;
  scope: string | null;
  /** The password hash (email-and-password accounts). */
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  /** Milliseconds since the epoch (`pg` reads bigint as a string). */
  lastRequest: ColumnType<number | string, number, number>;
}

/** The app's own attempt counters (app/security/rate-limit.server.ts); better-auth keeps its own. */
export interface AppRateLimitTable {
  /** "<limit>:<subject>", such as "sign-in-email:ana@example.com". */
  key: string;
  count: number;
  /** Milliseconds since the epoch when the current window opened (`pg` reads bigints as strings). */
  windowStart: ColumnType<number | string, number, number>;
  /** When the row means nothing any more (window end), for the purge. */
  expiresAt: ColumnType<number | string, number, number>;
}

/** A version the kept signed-in answers are keyed by (app/db/change-versions.server.ts). */
export interface ChangeVersionTable {
  key: string;
  /** `pg` reads bigints as strings. */
  version: ColumnType<number | string, number, number>;
}

/** A change's key and the first answer given to it (app/http/action-keys.server.ts). */
export interface ActionKeyTable {
  owner: string;
  key: string;
  /** "running" while the first request is being answered. */
  state: "running" | "answered";
  status: number | null;
  /** The answer's headers, as JSON. */
  headers: string | null;
  body: string | null;
  /** The CSP nonce the body was made with (a page answer carries it; a repeat gets a new one). */
  nonce: string | null;
  /** Milliseconds since the epoch (`pg` reads bigints as strings). */
  createdAt: ColumnType<number | string, number, number>;
}

export interface AppSecretTable {
  name: string;
  value: string;
}

/** A learner's current resume; the file lives in upload storage under storageKey. */
export interface ResumeTable {
  learnerId: string;
  storageKey: string;
  /** The name the learner's file had, shown and offered as the download name. */
  fileName: string;
  size: number;
  contentType: string;
  /** ISO-8601. */
  uploadedAt: string;
}

/** A learner's profile photo: a 256×256 WebP in upload storage. */
/** A learner's unfinished resume upload (at most one). */
export interface ResumeUploadTable {
  learnerId: string;
  uploadId: string;
  /** ISO-8601. */
  createdAt: string;
}

export interface ProfilePhotoTable {
  learnerId: string;
  storageKey: string;
  updatedAt: string;
}

export interface TaskLinkTable {
  id: string;
  learnerId: string;
  link: string;
  createdAt: string;
}

/** A notice, task or certificate sent to a learner; body is sanitized HTML. */
export interface MessageTable {
  id: string;
  learnerId: string;
  kind: MessageKind;
  body: string;
  sentBy: string | null;
  sentAt: string;
  readAt: string | null;
}

export interface OfferLetterTable {
  learnerId: string;
  /** Sanitized HTML, written by an admin, read-only for the learner. */
  body: string;
  updatedBy: string | null;
  updatedAt: string;
  /** When the learner read this version (ISO-8601); null until then, and again once it is replaced. */
  readAt: string | null;
}

/** One staff action: who did what, to whom, when; written in the action's transaction. */
export interface StaffAuditTable {
  id: string;
  actorId: string | null;
  /** The actor's username (or email) at the time, kept if the account goes. */
  actorName: string;
  action: StaffAction;
  /** The message kind, or the new role for a role change. */
  detail: string | null;
  targetId: string | null;
  /** The learner's name, or for a bulk send the search and filter it matched. */
  target: string;
  count: number;
  /** ISO-8601. */
  createdAt: string;
  /**
   * What the action sent, as plain text (a notice, task or certificate note, an offer letter, a
   * document's text); null for actions that send none, and once the learner erased their account.
   */
  sentText: string | null;
}

/** A learner's email choices, a column per kind (a migration adds a new kind's); no row means every kind 'immediate'. */
export interface EmailPreferenceTable extends Record<EmailKind, EmailMode> {
  learnerId: string;
  /** The next digest lists what arrived after this (ISO-8601); null when no kind is on the digest. */
  digestFrom: string | null;
  /** The institute's calendar day (YYYY-MM-DD) of the last digest round for this learner. */
  digestSentOn: string | null;
  updatedAt: string;
}

/** An email to send: about a message, a document, an assignment, or a day's digest. */
export interface MailJobTable {
  /**
   * What it is about, so the same email can't be queued twice: "message:<id>",
   * "digest:<learner>:<day>", "assignment-reminder:<assignment>:<learner>:<due date>".
   */
  key: string;
  kind: MailJobKind;
  /** Null for email about no account: an enquiry to the institute, an invitation to an enquirer. */
  learnerId: string | null;
  refId: string | null;
  windowStart: string | null;
  /** A digest's window end; for an assignment's email, the instant it is about (the due date, the review). */
  windowEnd: string | null;
  status: "pending" | "sent" | "failed" | "skipped";
  attempts: number;
  /** Milliseconds since the epoch (`pg` reads bigints as strings). */
  nextAttemptAt: ColumnType<number | string, number, number>;
  lockedUntil: ColumnType<number | string | null, number | null, number | null>;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** An account its owner asked to delete, erased after the grace period unless they sign in. */
export interface AccountDeletionTable {
  userId: string;
  requestedAt: string;
  eraseAfter: string;
}

/** Which request may write an unfinished upload, across instances (app/uploads/upload-locks.server.ts). */
export interface UploadLockTable {
  uploadId: string;
  /** A random id of the holding request. */
  holder: string;
  /** Milliseconds since the epoch (`pg` reads bigints as strings). */
  expiresAt: ColumnType<number | string, number, number>;
}

/** A document-signing key (app/documents/signing.server.ts); the active one has no retiredAt. */
export interface SigningKeyTable {
  /** The RFC 7638 thumbprint of the public key: the JWS header's kid and the DID key fragment. */
  kid: string;
  /** The public JWK (JSON text), as published in /.well-known/jwks.json. */
  publicJwk: string;
  /** The private JWK (JSON text, with "d"). Never logged, never sent. */
  privateJwk: string;
  /** ISO-8601. */
  createdAt: string;
  /** When a rotation replaced it (ISO-8601); null for the active key. */
  retiredAt: string | null;
}

/**
 * A certificate or offer letter issued as a PDF with a unique code (app/documents). Dates of
 * the document are 'YYYY-MM-DD' in INSTITUTE_TZ; other times ISO-8601.
 */
export interface DocumentTable {
  id: string;
  /** UPS-XXXX-XXXX-XXXX-XXXX (app/documents/code.ts); unique, never reused. */
  code: string;
  kind: DocumentKind;
  /** The holder's user id; null once they have erased their account (the document is kept, revoked). */
  learnerId: string | null;
  /** The name printed: the learner's name at issue. */
  holderName: string;
  /** Certificate title, or the offer letter's position. */
  title: string;
  description: string | null;
  issuedOn: string;
  validUntil: string | null;
  hours: number | null;
  startDate: string | null;
  location: string | null;
  payKind: PayKind | null;
  /** Integer paise (`pg` reads bigints as strings). */
  payAmountPaise: ColumnType<number | string, number, number> | null;
  payPeriod: PayPeriod | null;
  replyBy: string | null;
  /** Offer letter body: sanitized HTML (prepareMessageBody). */
  body: string | null;
  response: OfferResponse | null;
  respondedAt: string | null;
  /** SITE_NAME at issue. */
  issuerName: string;
  /** APP_URL at issue. */
  issuerUrl: string;
  signatoryName: string | null;
  signatoryTitle: string | null;
  /** The PDF in upload storage: documents/<random>.pdf. */
  storageKey: string;
  /** Hex SHA-256 of the stored PDF. */
  sha256: string;
  /** Compact JWS of the essential claims, once signed. */
  jws: string | null;
  /**
   * A certificate's signed Open Badges credential, JSON exactly as served; null for offer
   * letters and until it is signed (app/documents/open-badge.server.ts).
   */
  credential: string | null;
  /** Position in the revocation status list. */
  statusIndex: number;
  issuedBy: string | null;
  createdAt: string;
  /** Changes on reissue, revoke and response. */
  updatedAt: string;
  reissuedAt: string | null;
  revokedAt: string | null;
  revokeReason: string | null;
  revokedBy: string | null;
  /** When the learner first saw it. */
  readAt: string | null;
  /** The batch a certificate was issued for (one valid per learner and batch); null otherwise. */
  batchId: string | null;
}

/** Certificates being issued to many learners, batch by batch (app/documents/issue-jobs.server.ts). */
export interface DocumentJobTable {
  id: string;
  /** The certificate's fields, JSON. */
  fields: string;
  /** The ticked learners' ids, JSON; null for a job over the search and course. */
  learnerIds: string | null;
  search: string | null;
  course: string | null;
  /** JSON `{ filter, clock }`: the whole filter of a job over a search (null in older jobs: search and course). */
  filter: string | null;
  /** ISO-8601: learners who signed up later are not in the job. */
  cutoff: string;
  /** The last learner id done (learners go in id order); null before the first batch. */
  cursor: string | null;
  total: number;
  issued: number;
  createdBy: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** ISO-8601: the instance working on it holds it until then. */
  lockedUntil: string | null;
  /** The batch whose completers it issues to (each learner skipped who holds its certificate). */
  batchId: string | null;
}

/** The one row (id 1) of what new documents are signed with; see app/documents/settings.server.ts. */
export interface DocumentSettingsTable {
  id: number;
  signatoryName: string;
  signatoryTitle: string;
  /** The signature image (PNG) in upload storage; null when there is none. */
  signatureKey: string | null;
  updatedBy: string | null;
  /** ISO-8601. */
  updatedAt: string;
}

/** A learner's quote on the public site; shown only when consentAt is set. */
export interface TestimonialTable {
  id: string;
  name: string;
  course: string;
  quote: string;
  /** A WebP data URL re-encoded by sharp, or null. */
  photo: string | null;
  /** ISO-8601: when the learner agreed to be shown; null means never shown publicly. */
  consentAt: string | null;
  /** How the consent was given (e.g. "Email of 3 May"), for the record. */
  consentNote: string;
  createdAt: string;
  updatedAt: string;
}

/** A company that hires the institute's learners, with its logo (a WebP data URL). */
export interface HiringPartnerTable {
  id: string;
  name: string;
  logo: string;
  createdAt: string;
}

/** Staff-edited text of a public page (slug "about"). */
/** An enquiry from the public site's form (app/enquiries/). */
export interface EnquiryTable {
  id: string;
  name: string;
  /** Ten digits, as at sign-up. */
  phone: string;
  email: string | null;
  course: string;
  message: string;
  callbackTime: CallbackTime;
  status: EnquiryStatus;
  createdAt: string;
  updatedAt: string;
}

/** What staff did with an enquiry: a status change, a note, an invitation to sign up. */
export interface EnquiryEventTable {
  id: string;
  enquiryId: string;
  /** Null once that staff account is deleted; the name stays. */
  actorId: string | null;
  actorName: string;
  kind: "status" | "note" | "invite";
  status: EnquiryStatus | null;
  note: string | null;
  createdAt: string;
}

export interface SitePageTable {
  slug: string;
  body: string;
  updatedBy: string | null;
  updatedAt: string;
}

/** A section of the public site as admins edit it (app/site/site-sections.server.ts): JSON documents. */
/** The admins' first-run checklist: its one row (id 1), once dismissed or found done. */
export interface FirstRunTable {
  id: number;
  dismissedAt: string | null;
  completedAt: string | null;
}

export interface SiteSectionTable {
  key: string;
  draft: string | null;
  published: string | null;
  draftAt: string | null;
  publishedAt: string | null;
  updatedBy: string | null;
}

/** A re-encoded image of the public site (the logo, the hero picture), named by its content's hash. */
export interface SiteImageTable {
  name: string;
  contentType: string;
  width: number;
  height: number;
  /** Base64. */
  data: string;
  createdAt: string;
}

/** A pay-after-placement course the landing page advertises (app/catalogue). */
export interface CourseTable {
  /** Stable: the Register Now link carries it (`?course=<slug>`). */
  slug: string;
  title: string;
  duration: string;
  /** Whole rupees; null shows no amount (Linux). */
  price: number | null;
  details: string;
  /** The landing page's order, ascending. */
  position: number;
  /** 1 shown, 0 hidden. */
  shown: number;
  /** Where Register Now goes; null means PAYMENT_URL. */
  paymentUrl: string | null;
  updatedAt: string;
  /** The pay-after-placement fee terms its batches use unless they override them; null: none. */
  termsId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A course the sign-up form offers, in `position` order. */
export interface SignupCourseOptionTable {
  label: string;
  position: number;
}

/** A learner import from its dry run to its result (app/staff/learner-import.server.ts). */
export interface LearnerImportTable {
  /** Random and unguessable; only its admin may use it anyway. */
  id: string;
  actorId: string;
  fileName: string;
  mode: "add" | "update";
  status: "pending" | "importing" | "done";
  /** JSON: string[]. */
  extraColumns: string;
  /** JSON: the parsed data rows with their line numbers. */
  rows: string;
  /** JSON once done: totals and failed rows. */
  result: string | null;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601: an hour after the dry run. */
  expiresAt: string;
}

/** Money columns: bigint, which `pg` reads as a string. Read with `Number(value)`. */
type Paise = ColumnType<number | string, number, number>;

export interface FeeTermsTable {
  id: string;
  name: string;
  ctcThresholdPaise: Paise;
  feeKind: "fixed" | "percent";
  feeAmountPaise: Paise | null;
  feeBasisPoints: number | null;
  capPaise: Paise | null;
  instalments: number;
  placementWindowMonths: number;
  gstBasisPoints: number;
  pauseRule: string;
  createdBy: string;
  createdAt: string;
}

export interface BatchTable {
  id: string;
  name: string;
  course: string;
  startDate: string;
  endDate: string;
  payment: "pap" | "upfront";
  /** Its own fee terms, overriding its course's; null: the course's terms (`course.termsId`). */
  termsId: string | null;
  createdAt: string;
  /** The catalogue course (`course.slug`) taught; `course` keeps its title as the reports group it. */
  courseSlug: string | null;
  /** When it meets, in words ("Mon–Fri 6–8 pm"). */
  schedule: ColumnType<string, string | undefined, string>;
}

/** A staff member who teaches a batch. */
export interface BatchTrainerTable {
  batchId: string;
  staffId: string;
  createdAt: string;
}

export interface AssignmentTable {
  id: string;
  /** Null for one set for selected learners outside a batch. */
  batchId: string | null;
  title: string;
  /** Sanitized HTML. */
  instructions: string;
  /** ISO-8601 instant. */
  dueAt: string;
  handIn: HandIn;
  points: number | null;
  createdBy: string | null;
  createdByName: string;
  createdAt: string;
  /** When the overdue pass last counted its due date as passed; null until then, or since it moved. */
  overdueCountedAt: ColumnType<string | null, never, string | null>;
}

/** One learner's assignment: its one status. */
export interface LearnerAssignmentTable {
  assignmentId: string;
  learnerId: string;
  status: AssignmentStatus;
  points: number | null;
  submittedAt: string | null;
  reviewedAt: string | null;
  updatedAt: string;
  /** The due date the reminder was made for (it moved if it differs from the assignment's). */
  reminderDueAt: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the reminder was made: the digest lists it by this. */
  remindedAt: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SubmissionTable {
  id: string;
  assignmentId: string;
  learnerId: string;
  link: string | null;
  fileId: string | null;
  /** 1 when handed in after the due time. */
  late: number;
  submittedAt: string;
}

export interface AssignmentFileTable {
  id: string;
  assignmentId: string;
  learnerId: string;
  storageKey: string;
  fileName: string;
  contentType: string;
  size: ColumnType<number | string, number, number>;
  createdAt: string;
}

export interface AssignmentCommentTable {
  id: string;
  assignmentId: string;
  learnerId: string;
  authorId: string | null;
  authorName: string;
  kind: "reply" | "changes" | "accepted" | "feedback";
  body: string;
  createdAt: string;
  /** When the learner was shown it (their own replies: when written); null while unread. */
  readAt: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface EnrolmentTable {
  id: string;
  batchId: string;
  learnerId: string;
  /** 1 or 0: seeking a job after the course. */
  seeking: number;
  graduation: Graduation;
  seekingAtGraduation: number | null;
  createdAt: string;
}

export interface EnrolmentChangeTable {
  id: string;
  enrolmentId: string;
  field: "seeking" | "graduation";
  value: string;
  changedByName: string;
  changedAt: string;
}

export interface AgreementTable {
  enrolmentId: string;
  termsId: string;
  /** JSON: the FeeTerms as agreed. */
  terms: string;
  termsText: string;
  acceptedAt: string | null;
  decision: "owed" | "below-threshold" | "outside-window" | null;
  decisionText: string | null;
  offerId: string | null;
  createdAt: string;
}

export interface JobApplicationTable {
  id: string;
  learnerId: string;
  company: string;
  role: string;
  source: "referral" | "own";
  stage: ApplicationStage;
  interviewRound: number;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
}

export interface ApplicationStageTable {
  id: string;
  applicationId: string;
  stage: ApplicationStage;
  interviewRound: number;
  changedByName: string;
  changedAt: string;
}

export interface JobOfferTable {
  applicationId: string;
  learnerId: string;
  fixedCtcPaise: Paise;
  variableCtcPaise: Paise;
  location: string;
  offerDate: string;
  joiningDate: string;
  storageKey: string;
  fileName: string;
  status: "pending" | "verified" | "rejected";
  reviewedByName: string | null;
  reviewedAt: string | null;
  rejectReason: string | null;
  createdAt: string;
}

export interface InstalmentTable {
  id: string;
  enrolmentId: string;
  number: number;
  dueDate: string;
  feePaise: Paise;
  gstPaise: Paise;
  totalPaise: Paise;
  waivedAt: string | null;
  waivedByName: string | null;
  waiverReason: string | null;
}

export interface PaymentTable {
  id: string;
  instalmentId: string;
  amountPaise: Paise;
  paidOn: string;
  reference: string;
  recordedByName: string;
  recordedAt: string;
}

export interface FeePauseTable {
  id: string;
  enrolmentId: string;
  reason: string;
  until: string;
  createdByName: string;
  createdAt: string;
}

export interface PublicConsentTable {
  learnerId: string;
  consentText: string;
  givenAt: string;
}

export interface SavedViewTable {
  id: string;
  ownerId: string;
  name: string;
  /** The staff workspace's query string: filters, sort and page size. */
  query: string;
  createdAt: string;
}

export interface Database {
  user: UserTable;
  saved_view: SavedViewTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: RateLimitTable;
  rate_limit: AppRateLimitTable;
  action_key: ActionKeyTable;
  change_version: ChangeVersionTable;
  appSecret: AppSecretTable;
  resume: ResumeTable;
  resume_upload: ResumeUploadTable;
  profile_photo: ProfilePhotoTable;
  task_link: TaskLinkTable;
  message: MessageTable;
  offer_letter: OfferLetterTable;
  staff_audit: StaffAuditTable;
  email_preference: EmailPreferenceTable;
  mail_job: MailJobTable;
  account_deletion: AccountDeletionTable;
  upload_lock: UploadLockTable;
  signing_key: SigningKeyTable;
  document: DocumentTable;
  document_job: DocumentJobTable;
  document_settings: DocumentSettingsTable;
  learner_import: LearnerImportTable;
  fee_terms: FeeTermsTable;
  batch: BatchTable;
  enrolment: EnrolmentTable;
  enrolment_change: EnrolmentChangeTable;
  agreement: AgreementTable;
  job_application: JobApplicationTable;
  application_stage: ApplicationStageTable;
  job_offer: JobOfferTable;
  instalment: InstalmentTable;
  payment: PaymentTable;
  fee_pause: FeePauseTable;
  public_consent: PublicConsentTable;
  testimonial: TestimonialTable;
  hiring_partner: HiringPartnerTable;
  site_page: SitePageTable;
  site_section: SiteSectionTable;
  first_run: FirstRunTable;
  site_image: SiteImageTable;
  course: CourseTable;
  signup_course_option: SignupCourseOptionTable;
  enquiry: EnquiryTable;
  enquiry_event: EnquiryEventTable;
  batch_trainer: BatchTrainerTable;
  assignment: AssignmentTable;
  learner_assignment: LearnerAssignmentTable;
  submission: SubmissionTable;
  assignment_file: AssignmentFileTable;
  assignment_comment: AssignmentCommentTable;
}
