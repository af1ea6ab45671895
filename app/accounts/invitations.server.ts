import { randomBytes } from "node:crypto";
import type { CurrentInstitute } from "~/core/institute";
import type { Db } from "~/db/database.server";
import { toLearner } from "~/mail/learner-mail.server";
import { pendingMailJob, sendMail, skipMail, type MailHandler } from "~/mail/mail-queue.server";
import { invitationMessage } from "./account-mail.server";
import type { Auth } from "./auth.server";

/** How long an invitation's link works (a reset link works for an hour). */
export const invitationExpiryDays = 7;

/** The address of the page where an invited learner chooses their password. */
export function invitationLink(appUrl: string, token: string): string {
  return `${appUrl}/reset-password?token=${encodeURIComponent(token)}&invite=1`;
}

/**
 * A new link inviting this learner to choose a password: a password-reset token of better-auth's
 * own kind (`reset-password:<token>` in its verification table, used up by its reset endpoint,
 * which also creates the credential account an imported learner lacks), valid for
 * `invitationExpiryDays` instead of an hour. Made by the mail queue as it sends the invitation.
 */
export async function newInvitationLink(auth: Auth, appUrl: string, learnerId: string): Promise<string> {
  const context = await auth.$context;
  const token = randomBytes(24).toString("base64url");
  await context.internalAdapter.createVerificationValue({
    identifier: `reset-password:${token}`,
    value: learnerId,
    expiresAt: new Date(Date.now() + invitationExpiryDays * 86_400_000),
  });
  return invitationLink(appUrl, token);
}

/**
 * Queues an invitation to choose a password for each of these just-imported learners, in the
 * caller's transaction (the caller tells the mail workers after its commit). Its link is made
 * when it is sent, so no secret waits in the queue.
 */
export async function queueInvitations(trx: Db, learnerIds: string[]) {
  const now = Date.now();
  for (let i = 0; i < learnerIds.length; i += 500) {
    await trx
      .insertInto("mail_job")
      .values(
        learnerIds
          .slice(i, i + 500)
          .map((learnerId) => pendingMailJob({ key: `invitation:${learnerId}`, kind: "invitation", learnerId }, now)),
      )
      .onConflict((conflict) => conflict.column("key").doNothing())
      .execute();
  }
}

/**
 * The invitation email, whatever the learner's choices (it is about their account), with a new
 * link; pointless once they have chosen a password.
 */
export function invitationMailHandler(deps: {
  db: Db;
  /** The institute as stored at /staff/site, read for each email. */
  institute: CurrentInstitute;
  /** Makes a new link for the learner (newInvitationLink). */
  invitationLink: (learnerId: string) => Promise<string>;
}): MailHandler<"invitation"> {
  return toLearner<"invitation">(deps.db, async (job, learner) => {
    const credential = await deps.db
      .selectFrom("account")
      .select("id")
      .where("userId", "=", job.learnerId)
      .where("providerId", "=", "credential")
      .executeTakeFirst();
    if (credential) return skipMail("The learner has chosen a password.");
    return sendMail(
      invitationMessage({
        to: learner.email,
        name: learner.name,
        link: await deps.invitationLink(job.learnerId),
        siteName: (await deps.institute()).name,
        expiresInDays: invitationExpiryDays,
      }),
    );
  });
}
