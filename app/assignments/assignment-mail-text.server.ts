import { formatDateTime } from "~/core/dates";
import { escapeHtml, type MailMessage } from "~/mail/mailer.server";
import { notificationEmail, type NotificationContext } from "~/mail/notification-mail.server";

// What an assignment's reminder and review emails say, and their lines in a digest: plain,
// naming the assignment, the date or what the trainer said in short, and a link to it.

/** What one email or digest entry says: its subject, its lines as text, the same as HTML. */
export interface AssignmentWords {
  subject: string;
  textLines: string[];
  html: string;
}

/** How much of the trainer's comment an email quotes (the rest is a click away). */
const quoteLength = 300;

/** The comment in short: cut at a word within `quoteLength` characters, in whole code points. */
export function inShort(text: string): string {
  const words = text.replace(/\s+/g, " ").trim();
  const whole = Array.from(words);
  if (whole.length <= quoteLength) return words;
  const room = whole.slice(0, quoteLength - 1).join("");
  const lastSpace = room.lastIndexOf(" ");
  const cut = lastSpace > quoteLength / 2 ? room.slice(0, lastSpace) : room;
  return `${cut.replace(/[\s,;:.–—-]+$/, "")}…`;
}

/** "Build a calculator is due 28 Nov 2026, 6:00 pm." and what the learner has left to do. */
export function reminderWords(
  assignment: { title: string; dueAt: string; status: string },
  timeZone: string,
  link: string,
): AssignmentWords {
  const due = formatDateTime(assignment.dueAt, timeZone);
  const state =
    assignment.status === "changes-requested"
      ? "Your trainer asked for changes and is waiting for you to hand it in again."
      : "You have not handed it in yet.";
  return {
    subject: `Reminder: ${assignment.title} is due ${due}`,
    textLines: [`"${assignment.title}" is due ${due}.`, state, "", `Hand it in: ${link}`],
    html: `<p><strong>${escapeHtml(assignment.title)}</strong> is due ${escapeHtml(due)}. ${escapeHtml(state)}</p>
<p><a href="${escapeHtml(link)}">Hand it in</a></p>`,
  };
}

/** A review as its email tells it. */
export interface FeedbackFacts {
  title: string;
  status: "changes-requested" | "accepted";
  points: number | null;
  maxPoints: number | null;
  /** The trainer's comment, if they wrote one (a change request always has one). */
  comment?: { authorName: string; body: string } | undefined;
}

/** "Tara asked for changes to Build a calculator:" and the comment in short, or the acceptance. */
export function feedbackWords(review: FeedbackFacts, link: string): AssignmentWords {
  const who = review.comment?.authorName || "Your trainer";
  const said = review.comment?.body ? inShort(review.comment.body) : "";
  const points =
    review.points !== null && review.maxPoints !== null ? `${review.points} of ${review.maxPoints} points` : "";
  const changes = review.status === "changes-requested";
  const subject = changes
    ? `Changes requested: ${review.title}`
    : `Accepted: ${review.title}${points ? ` (${points})` : ""}`;
  const headline = changes
    ? `${who} asked for changes to "${review.title}"${said ? ":" : "."}`
    : `${who} accepted "${review.title}"${points ? ` with ${points}` : ""}${said ? ":" : "."}`;
  const action = changes ? "See the feedback and hand it in again" : "See it on your dashboard";
  return {
    subject,
    textLines: [headline, ...(said ? ["", said] : []), "", `${action}: ${link}`],
    html: `<p>${escapeHtml(headline)}</p>
${said ? `<blockquote style="border-left:4px solid #2563eb;margin:12px 0;padding:4px 12px">${escapeHtml(said)}</blockquote>\n` : ""}<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
  };
}

/** The email: greeting, the words, the footer and one-click unsubscribe of tasks. */
export function assignmentEmail(context: NotificationContext, words: AssignmentWords): MailMessage {
  return notificationEmail(context, {
    subject: words.subject,
    textLines: [`Hello ${context.name},`, "", ...words.textLines],
    html: `<p>Hello ${escapeHtml(context.name)},</p>\n${words.html}`,
  });
}
