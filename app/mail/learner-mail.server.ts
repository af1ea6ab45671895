import { personName } from "~/accounts/person-name";
import type { CurrentInstitute } from "~/core/institute";
import type { Db } from "~/db/database.server";
import type { EmailKind, MailJobKind } from "./email-kinds";
import { readEmailPreferences } from "./email-preferences.server";
import { skipMail, type MailHandler, type MailJob, type MailOutcome } from "./mail-queue.server";
import type { NotificationContext } from "./notification-mail.server";
import { unsubscribeToken, unsubscribeUrl } from "./unsubscribe.server";

/** What every notification email needs from the site's configuration. */
export interface NotificationSettings {
  db: Db;
  appUrl: string;
  /** The institute as stored at /staff/site, read for each email. */
  institute: CurrentInstitute;
  /** The institute's time zone, for the dates shown. */
  timeZone: string;
  /** Signs the unsubscribe links. */
  unsubscribeKey: Buffer;
}

/** The learner a job is for, as the email addresses them today. */
export interface LearnerRecipient {
  learnerId: string;
  email: string;
  name: string;
}

/** A job about an account, once the account is known to exist. */
export type LearnerJob<Kind extends MailJobKind> = MailJob<Kind> & { learnerId: string };

/**
 * A handler for email to a learner's account: it is skipped when the job names no account or the
 * account is gone, and written with the learner's address and name as they are now.
 */
export function toLearner<Kind extends MailJobKind>(
  db: Db,
  write: (job: LearnerJob<Kind>, learner: LearnerRecipient) => Promise<MailOutcome>,
): MailHandler<Kind> {
  return async (job) => {
    const { learnerId } = job;
    if (learnerId === null) return skipMail(`No account for an email of kind ${job.kind}`);
    const learner = await db
      .selectFrom("user")
      .select(["email", "username", "name"])
      .where("id", "=", learnerId)
      .executeTakeFirst();
    if (!learner) return skipMail("The account is gone.");
    return write({ ...job, learnerId }, { learnerId, email: learner.email, name: personName(learner) });
  };
}

/**
 * A handler for the email about one item of a kind the learner chooses for: sent only while
 * they still want that kind at once, with the footer and unsubscribe link of that kind.
 */
export function notificationHandler<Kind extends EmailKind>(
  settings: NotificationSettings,
  write: (job: LearnerJob<Kind>, context: NotificationContext) => Promise<MailOutcome>,
): MailHandler<Kind> {
  return notificationAbout<Kind>(settings, (job) => job.kind, write);
}

/**
 * The same for a job of another kind that follows the learner's choice for `about` (an
 * assignment's reminder follows their choice for tasks), whose link turns that kind off.
 */
export function notificationAbout<Kind extends MailJobKind>(
  settings: NotificationSettings,
  about: (job: MailJob<Kind>) => EmailKind,
  write: (job: LearnerJob<Kind>, context: NotificationContext) => Promise<MailOutcome>,
): MailHandler<Kind> {
  return toLearner<Kind>(settings.db, async (job, learner) => {
    const kind = about(job);
    const preferences = await readEmailPreferences(settings.db, learner.learnerId);
    if (preferences[kind] !== "immediate") return skipMail("The learner changed their choice.");
    return write(job, await notificationContext(settings, learner, [kind]));
  });
}

/** The context of a notification email to this learner about these kinds. */
export async function notificationContext(
  settings: NotificationSettings,
  learner: LearnerRecipient,
  kinds: EmailKind[],
): Promise<NotificationContext> {
  const { appUrl, timeZone, unsubscribeKey } = settings;
  const institute = await settings.institute();
  return {
    to: learner.email,
    name: learner.name,
    siteName: institute.name,
    institute,
    appUrl,
    timeZone,
    kinds,
    unsubscribeUrl: unsubscribeUrl(appUrl, unsubscribeToken(unsubscribeKey, learner.learnerId, kinds)),
  };
}
