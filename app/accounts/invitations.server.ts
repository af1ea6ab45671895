import { randomBytes } from "node:crypto";
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
