import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "~/config/config.server";
import type { Logger } from "~/logging/logger.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, such as List-Unsubscribe. */
  headers?: Record<string, string>;
  /** Files sent with it (a document's PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where mail goes, for the start-up log: "smtp://host:port" or the outbox directory. */
  readonly destination: string;
}

/** Sends through SMTP_URL; without it, writes each message as an .eml file to DATA_DIR/outbox. */
export function createMailer(config: Pick<Config, "smtpUrl" | "mailFrom" | "dataDir">, logger: Logger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    const safe = new URL(config.smtpUrl);
    const destination = `${safe.protocol}//${safe.host}`;
    return {
      destination,
      async send({ to, subject, text, html, headers, attachments }) {
        await transport.sendMail({ from: config.mailFrom, to, subject, text, html, headers, attachments });
        logger.info({ to, subject, via: destination }, "mail sent");
      },
    };
  }

  const outbox = path.join(config.dataDir, "outbox");
  const outboxPartial = path.join(config.dataDir, "outbox-partial");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    destination: outbox,
    async send({ to, subject, text, html, headers, attachments }) {
      const info = await transport.sendMail({
        from: config.mailFrom,
        to,
        subject,
        text,
        html,
        headers,
        attachments,
      });
      // Written beside the outbox and moved in whole: whoever reads the outbox never finds half
      // a message.
      await Promise.all([outbox, outboxPartial].map((dir) => fs.mkdir(dir, { recursive: true, mode: 0o700 })));
      const name = `${new Date().toISOString().replaceAll(":", "-")}-${randomUUID()}.eml`;
      const file = path.join(outbox, name);
      await fs.writeFile(path.join(outboxPartial, name), info.message as Buffer, { mode: 0o600 });
      await fs.rename(path.join(outboxPartial, name), file);
      // The file name only: mail carries links that act for the recipient (a reset link resets
      // their password), and logs are read by more people than the outbox.
      logger.info({ to, subject, file }, "mail written to outbox (SMTP_URL is not set)");
    },
  };
}

/**
 * Whether sending again later may work: the server said "try later" (4xx) or could not be
 * reached. A permanent refusal (5xx: no such mailbox, message refused) fails the email at once.
 */
export function isTemporaryMailFailure(error: unknown): boolean {
  const { responseCode } = (error ?? {}) as { responseCode?: unknown };
  if (typeof responseCode === "number") return responseCode >= 400 && responseCode < 500;
  return true;
}

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

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
