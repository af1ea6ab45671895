import { invitationMailHandler } from "~/accounts/invitations.server";
import {
  assignmentDigestSource,
  feedbackMailHandler,
  queueAssignmentReminders,
  reminderMailHandler,
} from "~/assignments/assignment-mail.server";
import { countPassedDueDates } from "~/assignments/overdue-figure.server";
import type { Config } from "~/config/config.server";
import type { Db } from "~/db/database.server";
import { documentDigestSource, documentMailHandler } from "~/documents/document-mail.server";
import { enquiryMailHandlers } from "~/enquiries/enquiry-mail.server";
import { dailyDigest } from "~/mail/digest.server";
import type { MailWorkerDeps } from "~/mail/mail-queue.server";
import { messageKinds, perKind } from "~/messages/kinds";
import { messageDigestSource, messageMailHandler } from "~/messages/message-mail.server";
import { currentInstitute } from "~/site/sections/institute.server";
import type { UploadStorage } from "~/uploads/storage.server";

/**
 * What the mail queue sends, kind by kind: each feature's handler, and the daily digest with
 * the feature that lists each kind. A kind without its handler or digest source fails the
 * typecheck.
 */
export function mailHandlers(deps: {
  db: Db;
  config: Config;
  storage: UploadStorage;
  unsubscribeKey: Buffer;
  invitationLink: (learnerId: string) => Promise<string>;
}): Pick<MailWorkerDeps, "handlers" | "queueDue"> {
  const { db, config } = deps;
  // Mail names the institute as stored at /staff/site when each email is written.
  const institute = () => currentInstitute(db, config.site);
  const settings = {
    db,
    appUrl: config.appUrl,
    institute,
    timeZone: config.instituteTimeZone,
    unsubscribeKey: deps.unsubscribeKey,
  };
  const messages = messageMailHandler(settings);
  const digest = dailyDigest(
    { ...settings, digestHour: config.digestHour },
    {
      ...perKind(messageKinds, () => [messageDigestSource]),
      // An assignment's reminder and review follow the learner's choice for tasks.
      task: [messageDigestSource, assignmentDigestSource(settings)],
      document: [documentDigestSource],
    },
  );
  return {
    handlers: {
      ...perKind(messageKinds, () => messages),
      document: documentMailHandler({ ...settings, storage: deps.storage }),
      digest: digest.handler,
      invitation: invitationMailHandler({ db, institute, invitationLink: deps.invitationLink }),
      ...enquiryMailHandlers(db, { appUrl: config.appUrl, institute }),
      "assignment-reminder": reminderMailHandler(settings),
      "assignment-feedback": feedbackMailHandler(settings),
    },
    // Reminders first: one due today can go in the digest queued in the same round. The staff
    // table's overdue figures follow the due dates passed since the last round.
    queueDue: [countPassedDueDates(db), queueAssignmentReminders(db), digest.queueDue],
  };
}
