// What the database stores, table by table, as the privacy policy tells it. A test compares
// this list with the tables the migrations create, so the policy can't fall behind.

export interface StoredData {
  /** The tables that hold it. */
  tables: string[];
  what: string;
  why: string;
  keptFor: string;
}

export const storedData: StoredData[] = [
  {
    tables: ["user"],
    what: "Your account: username, email, phone, course, gender, role, when you signed up, when you last used the site (to the nearest quarter of an hour)",
    why: "To run your account and your training, and so staff can reach you",
    keptFor: "Until you delete your account",
  },
  {
    tables: ["account"],
    what: "Your password, as a one-way hash (nobody can read it back)",
    why: "To let you sign in",
    keptFor: "Until you delete your account",
  },
  {
    tables: ["session"],
    what: "Where you are signed in: when, from which IP address and browser",
    why: "To keep you signed in, and so you can end sessions",
    keptFor: "Until you sign out, or 30 days without use",
  },
  {
    tables: ["verification"],
    what: "Password reset links",
    why: "To let you choose a new password",
    keptFor: "One hour, or until used",
  },
  {
    tables: ["rateLimit", "rate_limit"],
    what: "Counts of recent sign-in and other attempts, by IP address, email or account",
    why: "To stop password guessing and floods",
    keptFor: "Up to one hour",
  },
  {
    tables: ["resume", "resume_upload", "profile_photo", "upload_lock"],
    what: "Your résumé and profile photo (the files, their names and sizes, and when you uploaded them)",
    why: "To show them to you and to staff preparing your placement",
    keptFor: "Until you replace or remove them, or delete your account",
  },
  {
    tables: ["task_link"],
    what: "The links to the tasks you submit",
    why: "So staff can review your work",
    keptFor: "Until you remove them, or delete your account",
  },
  {
    tables: ["message", "offer_letter"],
    what: "Notices, tasks, certificates and your offer letter, who sent them, and when you read them",
    why: "Your training record",
    keptFor: "Until staff remove them, or you delete your account",
  },
  {
    tables: ["email_preference", "mail_job"],
    what: "Which emails you want, and the emails we sent you or about your enquiry (what about, when, whether it was delivered)",
    why: "To email you as you chose, and to retry when delivery fails",
    keptFor: "Your choices until you delete your account; each sent email's record 7 days",
  },
  {
    tables: ["document", "document_job"],
    what: "Certificates and offer letters issued to you: every field, the PDF, its code and status, your reply",
    why: "So you, and anyone you show them to, can check them",
    keptFor: "Kept; when you delete your account they are marked revoked ('Holder deleted their account')",
  },
  {
    tables: ["enrolment", "enrolment_change", "agreement"],
    what: "Your batches, whether you were seeking a job (each change, by whom and when), your graduation status, and the pay-after-placement agreement you accepted, with its text and when",
    why: "To run your course and placement, and to report placement outcomes",
    keptFor: "Until you delete your account",
  },
  {
    tables: ["job_application", "application_stage", "job_offer"],
    what: "Your job applications and their stages, and the offers you recorded: pay, location, dates and the offer letter",
    why: "To help you get placed, to verify placements, and to work out any fee due",
    keptFor: "Until you delete your account",
  },
  {
    tables: ["instalment", "payment", "fee_pause"],
    what: "Your pay-after-placement fees: instalments, payments received, pauses and waivers",
    why: "To bill what the agreement says, and no more",
    keptFor: "Until you delete your account",
  },
  {
    tables: [
      "batch_trainer",
      "assignment",
      "learner_assignment",
      "submission",
      "assignment_file",
      "assignment_comment",
    ],
    what: "Which staff members teach each batch; the assignments set for your batch or for you; what you handed in for each (links and files), its status and points; and the conversation with your trainer about it",
    why: "To set work, review what you hand in and give you feedback",
    keptFor:
      "Until you delete your account (what you handed in is erased with it); an assignment itself until staff delete its batch",
  },
  {
    tables: ["public_consent"],
    what: "That you agreed to be named on the public site, with the words you agreed to and when",
    why: "To show your name only with your consent",
    keptFor: "Until you withdraw it or delete your account",
  },
  {
    tables: ["testimonial"],
    what: "If you agree to it: your name, course, photo and words about us, and how and when you agreed",
    why: "To show future learners what training here led to (only with your recorded consent)",
    keptFor: "Until you withdraw consent or ask us to remove it (then it is no longer shown at once)",
  },
  {
    tables: ["hiring_partner", "site_page"],
    what: "Companies that hire our learners (name and logo) and the text of public pages such as About",
    why: "To show them on the public site",
    keptFor: "Until staff remove or change them",
  },
  {
    tables: ["enquiry", "enquiry_event"],
    what: "Enquiries sent with the form on our site: name, phone, email if given, course, message, when to call back; and what staff did with each (status, notes, who and when)",
    why: "To call you back and answer your enquiry",
    keptFor:
      "Two years after the last change, then deleted. An enquiry is not part of an account: it is not in 'Download my data' and not deleted with an account; write to us to see or delete one",
  },
  {
    tables: ["learner_import"],
    what: "A spreadsheet of learners an admin uploaded, between checking it and importing it",
    why: "So the import applies exactly what the admin checked",
    keptFor: "One hour",
  },
  {
    tables: ["staff_audit"],
    what: "What staff did and to whom (for example 'sent a task to …'), with the text they sent",
    why: "Accountability for staff actions",
    keptFor:
      "Kept; when you delete your account, your name in it is replaced by 'Deleted learner' and the texts sent to you alone are removed",
  },
  {
    tables: ["saved_view"],
    what: "Staff members' saved views of the learner list: a name and the filters and sort chosen",
    why: "So staff can open the lists they use again, and share them with colleagues",
    keptFor: "Until the staff member deletes the view or their account",
  },
  {
    tables: ["action_key"],
    what: "A key your browser puts on each change you send, with the answer the change got (for example 'Notice sent.')",
    why: "So that a change sent again after a dropped connection is not made twice",
    keptFor: "One day",
  },
  {
    tables: ["account_deletion"],
    what: "That you asked to delete your account, and when it will be erased",
    why: "To erase it after 7 days unless you sign in again",
    keptFor: "Until the account is erased or you sign in",
  },
];

/** Tables that hold nothing about a person, and why. */
export const tablesWithoutPersonalData: Record<string, string> = {
  appSecret: "the server's own secret keys",
  signing_key: "the keys that sign certificates and offer letters",
  document_settings: "the signatory's name, title and signature on documents",
  fee_terms: "the institute's pay-after-placement fee terms",
  batch: "the institute's batches: course, name and dates",
  course: "the courses the landing page advertises: title, duration, price, description, payment link",
  signup_course_option: "the courses the sign-up form offers",
  change_version: "counters that say when a kept page must be made again (an account's id and a number, nothing else)",
  site_section: "the public site's brand, sections and policies as admins draft and publish them",
  site_image: "the public site's logo and header pictures",
  first_run: "whether the admins' first-run checklist was dismissed or done, and when",
  kysely_migration: "which database migrations have run",
  kysely_migration_lock: "a lock for running migrations",
};
