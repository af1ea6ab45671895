import { escapeHtml, type MailMessage } from "~/mail/mailer.server";
import type { DocumentKind } from "./kinds";

/** The email that brings a learner their new certificate or offer letter, with its PDF attached. */
export function documentIssuedMessage(options: {
  to: string;
  name: string;
  kind: DocumentKind;
  title: string;
  code: string;
  siteName: string;
  verifyUrl: string;
  pdf: Buffer;
  fileName: string;
}): MailMessage {
  const { to, name, kind, title, code, siteName, verifyUrl, pdf, fileName } = options;
  const certificate = kind === "certificate";
  const subject = certificate ? `Your certificate: ${title}` : `Your offer letter from ${siteName}`;
  const lead = certificate
    ? `Congratulations! ${siteName} has issued your certificate for ${title}.`
    : `${siteName} has sent you an offer letter for the position of ${title}. Please read it and answer on your dashboard before the reply-by date.`;
  const text = [
    `Hello ${name},`,
    "",
    lead,
    "",
    `The PDF is attached. Its code is ${code}; anyone can check it at:`,
    "",
    verifyUrl,
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#0f172a">
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(lead)}</p>
<p>The PDF is attached. Its code is <strong>${escapeHtml(code)}</strong>; anyone can check it at:</p>
<p style="word-break:break-all"><a href="${escapeHtml(verifyUrl)}">${escapeHtml(verifyUrl)}</a></p>
</body></html>`;
  return {
    to,
    subject,
    text,
    html,
    attachments: [{ filename: fileName, content: pdf, contentType: "application/pdf" }],
  };
}
