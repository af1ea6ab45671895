import { escapeHtml, type MailMessage } from "~/mail/mailer.server";

/** The password-reset email. */
export function passwordResetMessage(options: { to: string; name: string; link: string; siteName: string }) {
  const { to, name, link, siteName } = options;
  const subject = `Reset your ${siteName} password`;
  const text = [
    `Hello ${name},`,
    "",
    `Someone asked to reset the password of your ${siteName} account. To choose a new password, open this link:`,
    "",
    link,
    "",
    "The link works once and expires in one hour. If you did not ask for it, ignore this email: your password stays as it is.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#0f172a">
<p>Hello ${escapeHtml(name)},</p>
<p>Someone asked to reset the password of your ${escapeHtml(siteName)} account. To choose a new password, open this link:</p>
<p><a href="${escapeHtml(link)}">Reset your password</a></p>
<p style="word-break:break-all">${escapeHtml(link)}</p>
<p>The link works once and expires in one hour. If you did not ask for it, ignore this email: your password stays as it is.</p>
</body></html>`;
  return { to, subject, text, html } satisfies MailMessage;
}

/** The invitation an imported learner gets: a link to choose their password, which also signs them in. */
export function invitationMessage(options: {
  to: string;
  name: string;
  link: string;
  siteName: string;
  expiresInDays: number;
}) {
  const { to, name, link, siteName, expiresInDays } = options;
  const subject = `Your ${siteName} account is ready: choose your password`;
  const expiry = `The link works once and expires in ${expiresInDays} days. After that, use Forgot Password on the site to get a new one.`;
  const text = [
    `Hello ${name},`,
    "",
    `An account on ${siteName} has been made for you with this email address. To choose your password and sign in, open this link:`,
    "",
    link,
    "",
    expiry,
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#0f172a">
<p>Hello ${escapeHtml(name)},</p>
<p>An account on ${escapeHtml(siteName)} has been made for you with this email address. To choose your password and sign in, open this link:</p>
<p><a href="${escapeHtml(link)}">Choose your password</a></p>
<p style="word-break:break-all">${escapeHtml(link)}</p>
<p>${escapeHtml(expiry)}</p>
</body></html>`;
  return { to, subject, text, html } satisfies MailMessage;
}
