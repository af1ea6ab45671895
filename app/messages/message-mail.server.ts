import { popups } from "~/dashboard/popups";
import type { Db } from "~/db/database.server";
import { spanOf, type DigestSource, type DigestSpan } from "~/mail/digest.server";
import type { EmailKind } from "~/mail/email-kinds";
import type { MessageKind } from "~/messages/kinds";
import { notificationHandler, type NotificationSettings } from "~/mail/learner-mail.server";
import { sendMail, skipMail, type MailHandler } from "~/mail/mail-queue.server";
import { escapeHtml, type MailMessage } from "~/mail/mailer.server";
import { notificationEmail, type NotificationContext } from "~/mail/notification-mail.server";
import { kindLabels, messageKinds } from "./kinds";
import { textFromHtml } from "./plain-text.server";

export interface NotifiedItem {
  kind: MessageKind;
  /** Sanitized HTML, as the learner sees it on the dashboard. */
  html: string;
  sentAt: string;
}

const dashboardLink = (appUrl: string, kind: MessageKind) =>
  `${appUrl}/dashboard?show=${popups.find((popup) => popup.id === kind)!.show}`;

/** The longest subject a notice's email gets (mail clients show about this much). */
const noticeSubjectLength = 60;

/**
 * "Notice: Classes resume on Monday…": the notice's first words, cut at a word within 60
 * characters; null for a notice with no words (only an image).
 */
export function noticeSubject(text: string): string | null {
  const words = text.replace(/\s+/g, " ").trim();
  if (!words) return null;
  // Counted in code points, so a cut never splits a character.
  const whole = Array.from(`Notice: ${words}`);
  if (whole.length <= noticeSubjectLength) return whole.join("");
  const room = whole.slice(0, noticeSubjectLength - 1).join("");
  const lastSpace = room.lastIndexOf(" ");
  const cut = lastSpace > "Notice:".length ? room.slice(0, lastSpace) : room;
  return `${cut.replace(/[\s,;:.–—-]+$/, "")}…`;
}

/** "New task from Upskill", "Notice: Classes resume on Monday…": one message, as sent. */
export function messageEmail(context: NotificationContext, item: NotifiedItem): MailMessage {
  const { siteName, name, appUrl } = context;
  const label = kindLabels[item.kind].singular;
  const link = dashboardLink(appUrl, item.kind);
  const text = textFromHtml(item.html);
  const subject = (item.kind === "notice" && noticeSubject(text)) || `New ${label} from ${siteName}`;
  const textLines = [
    `Hello ${name},`,
    "",
    `${siteName} sent you a new ${label}:`,
    "",
    text,
    "",
    `Open it on your dashboard: ${link}`,
  ];
  const html = `<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(siteName)} sent you a new ${escapeHtml(label)}:</p>
<div style="border-left:4px solid #2563eb;padding:4px 12px;margin:16px 0">${item.html}</div>
<p><a href="${escapeHtml(link)}">Open it on your dashboard</a></p>`;
  return notificationEmail(context, { subject, textLines, html });
}

/** The email about one message a learner wants at once, written from the message as it is now. */
export function messageMailHandler(settings: NotificationSettings): MailHandler<MessageKind> {
  return notificationHandler<MessageKind>(settings, async (job, context) => {
    const item = await settings.db
      .selectFrom("message")
      .select(["kind", "body", "sentAt"])
      .where("id", "=", job.refId ?? "")
      .where("learnerId", "=", job.learnerId)
      .executeTakeFirst();
    if (!item) return skipMail("The message was deleted.");
    return sendMail(messageEmail(context, { kind: item.kind, html: item.body, sentAt: item.sentAt }));
  });
}

const isMessageKind = (kind: string): kind is MessageKind => (messageKinds as readonly string[]).includes(kind);

/** A digest's messages: those of the chosen kinds sent in its window. */
export const messageDigestSource: DigestSource = {
  async items(db, window, kinds, limit) {
    const messages = await messagesIn(db, spanOf(window), kinds)
      .select(["kind", "body", "sentAt"])
      .orderBy("sentAt")
      .limit(limit)
      .execute();
    return messages.map((item) => ({ label: kindLabels[item.kind].title, html: item.body, sentAt: item.sentAt }));
  },
  async count(db, window, kinds) {
    const { n } = await messagesIn(db, spanOf(window), kinds)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(n);
  },
  async latest(db, span, kinds) {
    const rows = await messagesIn(db, span, kinds)
      .select((eb) => ["learnerId", eb.fn.max("sentAt").as("at")])
      .groupBy("learnerId")
      .execute();
    return new Map(rows.map((row) => [row.learnerId, row.at]));
  },
};

const messagesIn = (db: Db, span: DigestSpan, kinds: EmailKind[]) =>
  db
    .selectFrom("message")
    .where("learnerId", "in", span.learnerIds)
    .where("kind", "in", kinds.filter(isMessageKind))
    .where("sentAt", ">", span.from)
    .where("sentAt", "<=", span.to);
