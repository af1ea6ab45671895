import { formatShortDay } from "~/core/dates";
import type { Institute } from "~/core/institute";
import { textFromHtml } from "~/messages/plain-text.server";
import { escapeHtml, type MailMessage } from "./mailer.server";
import { emailKindLabels, kindsInWords, type EmailKind } from "./email-kinds";

/** What every notification email needs besides its content. */
export interface NotificationContext {
  to: string;
  name: string;
  siteName: string;
  /** The institute as stored when the email is written: its signature. */
  institute: Institute;
  appUrl: string;
  /** The one-click link that turns off the kinds this email is about. */
  unsubscribeUrl: string;
  /** The kinds it is about (the unsubscribe link turns exactly these off). */
  kinds: EmailKind[];
  /** The institute's time zone, for the dates shown. */
  timeZone: string;
}

/**
 * A notification email: its lines and HTML, then the footer that says why it came and how to
 * stop it, and the one-click unsubscribe headers.
 */
export function notificationEmail(
  context: NotificationContext,
  content: { subject: string; textLines: string[]; html: string },
): MailMessage {
  const text = [...content.textLines, "", signatureText(context.institute), "", footerText(context)].join("\n");
  const html = page(`${content.html}\n${signatureHtml(context.institute, context.appUrl)}\n${footerHtml(context)}`);
  return withUnsubscribe(context, { to: context.to, subject: content.subject, text, html });
}

/** The most items one digest lists; the rest are counted. */
export const digestItemLimit = 50;

/** What a digest lists: a message, or a document issued ("Certificate: …" with its verify link). */
export interface DigestItem {
  /** "Task", "Notice", "Document". */
  label: string;
  html: string;
  sentAt: string;
}

/** One email a day listing what arrived since the last one. */
export function digestEmail(context: NotificationContext, items: DigestItem[], moreCount: number): MailMessage {
  const { siteName, name, appUrl } = context;
  const total = items.length + moreCount;
  const subject = `Your daily summary from ${siteName}: ${total} new ${total === 1 ? "item" : "items"}`;
  const heading = (item: DigestItem) => `${item.label}, ${formatShortDay(item.sentAt, context.timeZone)}`;
  const more = moreCount > 0 ? `And ${moreCount} more on your dashboard.` : "";
  const textLines = [
    `Hello ${name},`,
    "",
    `Here is what ${siteName} sent you since your last summary:`,
    "",
    ...items.flatMap((item) => [`${heading(item)}`, textFromHtml(item.html), ""]),
    ...(more ? [more, ""] : []),
    `Open your dashboard: ${appUrl}/dashboard`,
  ];
  const html = `<p>Hello ${escapeHtml(name)},</p>
<p>Here is what ${escapeHtml(siteName)} sent you since your last summary:</p>
${items
  .map(
    (item) => `<h2 style="font-size:16px;margin:20px 0 4px">${escapeHtml(heading(item))}</h2>
<div style="border-left:4px solid #2563eb;padding:4px 12px">${item.html}</div>`,
  )
  .join("\n")}
${more ? `<p>${escapeHtml(more)}</p>` : ""}
<p><a href="${escapeHtml(`${appUrl}/dashboard`)}">Open your dashboard</a></p>`;
  return notificationEmail(context, { subject, textLines, html });
}

/** The institute's signature under an email: its name and contact, as stored at /staff/site. */
export function signatureText(institute: Institute): string {
  return [institute.name, institute.address, `${institute.email} · ${institute.phone}`].join("\n");
}

/** The signature as HTML, with the stored logo (an absolute address, as mail needs) above it. */
export function signatureHtml(institute: Institute, appUrl: string): string {
  const logo = institute.logoPng
    ? `<img src="${escapeHtml(`${appUrl}${institute.logoPng}`)}" alt="${escapeHtml(institute.name)}" height="36" style="display:block;margin-bottom:6px"><br>`
    : "";
  return `<p style="font-size:14px;color:#0f172a;margin-top:24px">${logo}<strong>${escapeHtml(institute.name)}</strong><br>${escapeHtml(institute.address)}<br>${escapeHtml(institute.email)} · ${escapeHtml(institute.phone)}</p>`;
}

const footerWords = ({ siteName, kinds }: NotificationContext) =>
  `You get this email because you have an account on ${siteName}. Choose which emails you get in the settings on your dashboard, or turn off emails about ${kindsInWords(kinds)}:`;

function footerText(context: NotificationContext): string {
  return `--\n${footerWords(context)} ${context.unsubscribeUrl}`;
}

function footerHtml(context: NotificationContext): string {
  const which = context.kinds.length === 1 ? emailKindLabels[context.kinds[0]!].about : "these";
  return `<hr style="border:none;border-top:1px solid #cbd5e1;margin:24px 0 12px">
<p style="font-size:13px;color:#475569">${escapeHtml(footerWords(context))} <a href="${escapeHtml(context.unsubscribeUrl)}">Turn off emails about ${escapeHtml(which)}</a></p>`;
}

const page = (body: string) =>
  `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#0f172a;max-width:640px">\n${body}\n</body></html>`;

/** RFC 8058: mail providers show an unsubscribe button that POSTs to the link at once. */
function withUnsubscribe(context: NotificationContext, message: MailMessage): MailMessage {
  return {
    ...message,
    headers: {
      "List-Unsubscribe": `<${context.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/**
 * An email written elsewhere (a document's, with its PDF) made a notification: the footer that
 * says why it came and how to stop it, and the one-click unsubscribe headers.
 */
export function asNotification(context: NotificationContext, message: MailMessage): MailMessage {
  const end = `${signatureHtml(context.institute, context.appUrl)}\n${footerHtml(context)}`;
  const html = message.html.includes("</body>")
    ? message.html.replace("</body>", `${end}\n</body>`)
    : `${message.html}\n${end}`;
  const text = `${message.text}\n\n${signatureText(context.institute)}\n\n${footerText(context)}`;
  return withUnsubscribe(context, { ...message, text, html });
}
