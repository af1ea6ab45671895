// What learners can be emailed about, and how. Shared by the dashboard's form and the server.
import { z } from "zod";
import { messageKinds, perKind } from "../messages/kinds.ts";

/** The kinds a learner chooses for, in the order the dashboard lists them: each message kind, and documents. */
export const emailKinds = [...messageKinds, "document"] as const;

export type EmailKind = (typeof emailKinds)[number];

export const emailModes = ["immediate", "digest", "off"] as const;

export type EmailMode = (typeof emailModes)[number];

/**
 * What the mail queue sends: an email about one item of a kind, a day's digest, or an imported
 * learner's invitation to choose a password, an enquiry to the institute, an invitation to sign
 * up to someone who enquired, an assignment's reminder a day before it is due, a trainer's
 * review of a hand-in. Each has its handler (`MailHandlers`).
 */
export const mailJobKinds = [
  ...emailKinds,
  "digest",
  "invitation",
  "enquiry",
  "enquiry-invite",
  "assignment-reminder",
  "assignment-feedback",
] as const;

export type MailJobKind = (typeof mailJobKinds)[number];

export const emailModeLabels: Record<EmailMode, string> = {
  immediate: "Immediately",
  digest: "Daily digest",
  off: "Off",
};

/** How each kind is named in the settings, the emails and the unsubscribe page. */
export const emailKindLabels: Record<EmailKind, { setting: string; about: string }> = {
  notice: { setting: "Notices", about: "notices" },
  task: { setting: "Tasks", about: "tasks" },
  certificate: { setting: "Certificates", about: "certificates" },
  document: { setting: "Documents (certificates and offer letters as PDF)", about: "documents" },
};

export type EmailPreferences = Record<EmailKind, EmailMode>;

export const defaultEmailPreferences: EmailPreferences = perKind(emailKinds, () => "immediate");

const mode = z.enum(emailModes, { error: "Choose Immediately, Daily digest or Off." });

/** The dashboard's "Email notifications" form. */
export const emailPreferencesSchema = z.object(perKind(emailKinds, () => mode));

/** "notices and tasks", "notices, tasks and certificates". */
export function kindsInWords(kinds: readonly EmailKind[]): string {
  const words = kinds.map((kind) => emailKindLabels[kind].about);
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}
