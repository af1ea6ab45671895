import { createHash, randomUUID } from "node:crypto";
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

/**
 * Sends through SMTP_URL; without it, writes each message as an .eml file to DATA_DIR/outbox.
 * The sender is MAIL_FROM; when it gives an address alone, the name beside it is `senderName()`
 * (the site's name as stored at /staff/site), read for each message.
 */
export function createMailer(
  config: Pick<Config, "smtpUrl" | "mailFrom" | "dataDir">,
  logger: Logger,
  senderName?: () => Promise<string>,
): Mailer {
  const named = config.mailFrom.includes("<");
  const from = async () =>
    named || !senderName ? config.mailFrom : { name: await senderName(), address: config.mailFrom };
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    const safe = new URL(config.smtpUrl);
    const destination = `${safe.protocol}//${safe.host}`;
    return {
      destination,
      async send({ to, subject, text, html, headers, attachments }) {
        await transport.sendMail({ from: await from(), to, subject, text, html, headers, attachments });
        logger.info({ recipient: recipientTag(to), subject, via: destination }, "mail sent");
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
        from: await from(),
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
      logger.info({ recipient: recipientTag(to), subject, file }, "mail written to outbox (SMTP_URL is not set)");
    },
  };
}

/**
 * How logs name a recipient: a short hash of the address, the same for every email to it, so
 * lines can be matched to each other (and to an address one already knows) without logs
 * holding addresses.
 */
export function recipientTag(address: string): string {
  return createHash("sha256").update(address.trim().toLowerCase()).digest("hex").slice(0, 12);
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
