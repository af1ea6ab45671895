import type { Db } from "~/db/database.server";
import { sendMail, skipMail, type MailHandler, type MailJob } from "~/mail/mail-queue.server";
import type { CurrentInstitute } from "~/core/institute";
import { escapeHtml, type MailMessage } from "~/mail/mailer.server";
import { signatureHtml, signatureText } from "~/mail/notification-mail.server";
import { callbackTimeLabels } from "./enquiry-fields";

/** Where the enquiry emails come from and point to. */
export interface EnquiryMailContext {
  /** The institute as stored at /staff/site (its name, and the email enquiries go to), read for each email. */
  institute: CurrentInstitute;
  appUrl: string;
}

/** The address of one enquiry in the staff inbox. */
export const enquiryInboxUrl = (appUrl: string, id: string) =>
  `${appUrl}/staff/enquiries?selected=${encodeURIComponent(id)}`;

/** Where an enquirer invited to sign up is sent: the sign-up form on the landing page. */
export const signUpUrl = (appUrl: string) => `${appUrl}/?auth=signup`;

const page = (body: string) =>
  `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#0f172a">\n${body}\n</body></html>`;

/**
 * The enquiry emails: to the institute about a new enquiry, and the invitation to sign up staff
 * send an enquirer. Each is written from the enquiry as it is when it goes.
 */
export function enquiryMailHandlers(
  db: Db,
  context: EnquiryMailContext,
): { [Kind in "enquiry" | "enquiry-invite"]: MailHandler<Kind> } {
  const handler = async (job: MailJob<"enquiry" | "enquiry-invite">) => {
    const message = await enquiryEmail(db, context, job);
    return message ? sendMail(message) : skipMail("The enquiry is gone.");
  };
  return { enquiry: handler, "enquiry-invite": handler };
}

/**
 * The email of an enquiry job; null when the enquiry is gone (deleted after its retention) or
 * an invitation has no address any more.
 */
async function enquiryEmail(
  db: Db,
  context: EnquiryMailContext,
  job: { kind: "enquiry" | "enquiry-invite"; refId: string | null },
): Promise<MailMessage | null> {
  const enquiry = await db
    .selectFrom("enquiry")
    .selectAll()
    .where("id", "=", job.refId ?? "")
    .executeTakeFirst();
  if (!enquiry) return null;
  const institute = await context.institute();
  if (job.kind === "enquiry-invite") {
    if (!enquiry.email) return null;
    const link = signUpUrl(context.appUrl);
    const subject = `Sign up for ${institute.name}`;
    const lines = [
      `Hello ${enquiry.name},`,
      "",
      `Thank you for your enquiry about ${enquiry.course}. To join ${institute.name}, create your account here:`,
      "",
      link,
      "",
      `Questions? Reply to ${institute.email}.`,
      "",
      signatureText(institute),
    ];
    const html = page(
      [
        `<p>Hello ${escapeHtml(enquiry.name)},</p>`,
        `<p>Thank you for your enquiry about ${escapeHtml(enquiry.course)}. To join ${escapeHtml(institute.name)}, create your account here:</p>`,
        `<p><a href="${escapeHtml(link)}">Sign up</a></p>`,
        `<p style="word-break:break-all">${escapeHtml(link)}</p>`,
        `<p>Questions? Reply to ${escapeHtml(institute.email)}.</p>`,
        signatureHtml(institute, context.appUrl),
      ].join("\n"),
    );
    return { to: enquiry.email, subject, text: lines.join("\n"), html };
  }
  const inbox = enquiryInboxUrl(context.appUrl, enquiry.id);
  const rows: [string, string][] = [
    ["Name", enquiry.name],
    ["Phone", enquiry.phone],
    ["Email", enquiry.email ?? "(not given)"],
    ["Course", enquiry.course],
    ["Call back", callbackTimeLabels[enquiry.callbackTime]],
  ];
  const text = [
    `A new enquiry came in through the ${institute.name} website.`,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    "Message:",
    enquiry.message,
    "",
    `In the staff inbox: ${inbox}`,
  ].join("\n");
  const html = page(
    [
      `<p>A new enquiry came in through the ${escapeHtml(institute.name)} website.</p>`,
      `<table>${rows.map(([label, value]) => `<tr><th align="left" style="padding-right:1em">${label}</th><td>${escapeHtml(value)}</td></tr>`).join("")}</table>`,
      `<p style="white-space:pre-wrap">${escapeHtml(enquiry.message)}</p>`,
      `<p><a href="${escapeHtml(inbox)}">Open it in the staff inbox</a></p>`,
    ].join("\n"),
  );
  return {
    to: institute.email,
    subject: `New enquiry from ${enquiry.name}: ${enquiry.course}`,
    text,
    html,
    ...(enquiry.email ? { headers: { "Reply-To": enquiry.email } } : {}),
  };
}
