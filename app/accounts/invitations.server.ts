import { randomBytes } from "node:crypto";
import type { Config } from "~/config/config.server";
import type { Logger } from "~/logging/logger.server";
import { invitationMessage, type Mailer } from "~/mail/mailer.server";
import type { Auth } from "./auth.server";

/** How long an invitation's link works (a reset link works for an hour). */
export const invitationExpiryDays = 7;

/** How many invitations are made and handed to the mailer at once. */
const sendingAtOnce = 4;

export interface InvitationDeps {
  auth: Auth;
  mailer: Mailer;
  config: Pick<Config, "appUrl" | "site">;
  logger: Logger;
}

export interface Invitee {
  id: string;
  email: string;
  name: string;
}

/** The address of the page where an invited learner chooses their password. */
export function invitationLink(appUrl: string, token: string): string {
  return `${appUrl}/reset-password?token=${encodeURIComponent(token)}&invite=1`;
}

/**
 * Invites each learner to choose a password: a password-reset token of better-auth's own kind
 * (`reset-password:<token>` in its verification table, used up by its reset endpoint, which also
 * creates the credential account an imported learner lacks), valid for `invitationExpiryDays`
 * instead of an hour, sent with the invitation's wording. One learner's failure (mail server
 * down) is logged and does not stop the others. The only place invitations are sent, so that it
 * can move onto a mail queue whole.
 */
export async function sendInvitations(deps: InvitationDeps, invitees: readonly Invitee[]): Promise<number> {
  const context = await deps.auth.$context;
  const expiresAt = new Date(Date.now() + invitationExpiryDays * 86_400_000);
  let sent = 0;
  const inviteOne = async (invitee: Invitee) => {
    try {
      const token = randomBytes(24).toString("base64url");
      await context.internalAdapter.createVerificationValue({
        identifier: `reset-password:${token}`,
        value: invitee.id,
        expiresAt,
      });
      await deps.mailer.send(
        invitationMessage({
          to: invitee.email,
          name: invitee.name,
          link: invitationLink(deps.config.appUrl, token),
          siteName: deps.config.site.name,
          expiresInDays: invitationExpiryDays,
        }),
      );
      sent++;
    } catch (error) {
      // Never the link: it acts for the learner.
      deps.logger.error({ err: error, to: invitee.email }, "invitation email could not be sent");
    }
  };
  for (let i = 0; i < invitees.length; i += sendingAtOnce) {
    await Promise.all(invitees.slice(i, i + sendingAtOnce).map(inviteOne));
  }
  return sent;
}
