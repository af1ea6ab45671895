import type { Db } from "~/db/database.server";
import { spanOf, type DigestSource, type DigestSpan } from "~/mail/digest.server";
import { notificationHandler, type NotificationSettings } from "~/mail/learner-mail.server";
import { sendMail, skipMail, type MailHandler } from "~/mail/mail-queue.server";
import { escapeHtml, type MailMessage } from "~/mail/mailer.server";
import { asNotification } from "~/mail/notification-mail.server";
import type { UploadStorage } from "~/uploads/storage.server";
import { verifyUrl } from "./code";
import { pdfFileName } from "./documents.server";
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

/** The email bringing a learner a document they want at once, its PDF attached; none once it is revoked. */
export function documentMailHandler(
  settings: NotificationSettings & { storage: UploadStorage },
): MailHandler<"document"> {
  return notificationHandler<"document">(settings, async (job, context) => {
    const document = await settings.db
      .selectFrom("document")
      .select(["kind", "title", "code", "jws", "storageKey", "revokedAt", "issuerUrl"])
      .where("id", "=", job.refId ?? "")
      .where("learnerId", "=", job.learnerId)
      .executeTakeFirst();
    if (!document) return skipMail("The document is gone.");
    if (document.revokedAt) return skipMail("The document was revoked before it went.");
    const stored = await settings.storage.get(document.storageKey);
    if (!stored) throw new Error(`the PDF of ${document.code} is missing from storage`);
    const pdf = Buffer.concat(await stored.stream.toArray());
    return sendMail(
      asNotification(
        context,
        documentIssuedMessage({
          to: context.to,
          name: context.name,
          kind: document.kind,
          title: document.title,
          code: document.code,
          siteName: context.siteName,
          verifyUrl: verifyUrl(document.issuerUrl, document.code, document.jws),
          pdf,
          fileName: pdfFileName(document),
        }),
      ),
    );
  });
}

/** A digest's documents: those issued to the learner in its window, each with its verify link. */
export const documentDigestSource: DigestSource = {
  async items(db, window, _kinds, limit) {
    const documents = await documentsIn(db, spanOf(window))
      .select(["kind", "title", "code", "issuerUrl", "createdAt"])
      .orderBy("createdAt")
      .limit(limit)
      .execute();
    return documents.map((document) => {
      const link = verifyUrl(document.issuerUrl, document.code);
      const what = document.kind === "certificate" ? "Certificate" : "Offer letter";
      return {
        label: what,
        html: `<p>${escapeHtml(`${what}: ${document.title} (${document.code})`)}. <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        sentAt: document.createdAt,
      };
    });
  },
  async count(db, window) {
    const { n } = await documentsIn(db, spanOf(window))
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(n);
  },
  async latest(db, span) {
    const rows = await documentsIn(db, span)
      .select((eb) => ["learnerId", eb.fn.max("createdAt").as("at")])
      .groupBy("learnerId")
      .execute();
    // Each row is one of the span's learners (the column is empty only for documents of no learner).
    return new Map(rows.flatMap(({ learnerId, at }) => (learnerId === null ? [] : [[learnerId, at]])));
  },
};

const documentsIn = (db: Db, span: DigestSpan) =>
  db
    .selectFrom("document")
    .where("learnerId", "in", span.learnerIds)
    .where("createdAt", ">", span.from)
    .where("createdAt", "<=", span.to);
