import { z } from "zod";
import type { ProfileField } from "~/accounts/sign-up-schema";
import { kindLabels, messageKinds, type MessageKind } from "~/messages/kinds";
import { id, plain } from "~/core/fields";
import { textLimits } from "~/core/text";

// Shared by the staff pages' loaders and actions and their views: the fields and texts.

/** How many learners one targeted send may name (several pages of the list). */
export const maxSelected = 500;

export const staffMessages = {
  selectLearner: "Select a learner first.",
  empty: (kind: MessageKind) => `Please enter a ${kindLabels[kind].singular}.`,
  noClearPermission: (kind: MessageKind) => `You do not have permission to clear ${kindLabels[kind].plural}.`,
  sent: (kind: MessageKind) => `${kindLabels[kind].title} sent successfully!`,
  sentMany: (kind: MessageKind, count: number) =>
    `${kindLabels[kind].title} sent to ${count} ${count === 1 ? "learner" : "learners"}.`,
  cleared: (kind: MessageKind) => `${kindLabels[kind].title}s cleared.`,
  offerLetterSaved: "Offer letter saved.",
  deleted: (kind: MessageKind) => `${kindLabels[kind].title} deleted.`,
  alreadyDeleted: "That item was already deleted.",
  roleChanged: "Role changed.",
  notALearner: "That learner no longer exists.",
  countChanged: "The number of matching learners changed. Check the list and confirm again.",
  selectSome: "Select at least one learner.",
  tooManySelected: `Select at most ${maxSelected} learners at once, or send to all matching learners.`,
  selectedGone: (count: number) =>
    count === 1
      ? "1 selected learner no longer exists. Nothing was sent; they were taken off the selection."
      : `${count} selected learners no longer exist. Nothing was sent; they were taken off the selection.`,
  ownRole: "You cannot change your own role.",
  lastAdmin: "There must be at least one admin.",
  offerLetterEmpty: "Please enter an offer letter.",
  tooManyParts: (kind: MessageKind | "offer-letter") =>
    `That ${kind === "offer-letter" ? "offer letter" : kindLabels[kind].singular} has too many lines or tags: at most ${textLimits.messageLines.toLocaleString("en-IN")} lines and ${textLimits.messageTags.toLocaleString("en-IN")} tags.`,
  tooLong: (kind: MessageKind | "offer-letter") =>
    `That ${kind === "offer-letter" ? "offer letter" : kindLabels[kind].singular} is too long: at most ${textLimits.message.toLocaleString("en-IN")} characters once formatted.`,
} as const;

/**
 * The learners a bulk send reaches, in words: 'all 200 learners', or '8 learners in Web
 * Development whose name, email or phone contains "pri"'. The confirmation and the audit log say this.
 */
export function audienceWords({ search, course }: LearnerFilter, count: number): string {
  const q = search.trim();
  const learners = `${count.toLocaleString("en-IN")} ${count === 1 ? "learner" : "learners"}`;
  if (!q && !course) return count === 1 ? "the only learner" : `all ${learners}`;
  return [learners, course && `in ${course}`, q && `whose name, email or phone contains "${q}"`]
    .filter(Boolean)
    .join(" ");
}

/** Names a few learners: 'Asha', 'Asha and Ravi', 'Asha, Ravi and 3 more'. */
export function namesInWords(names: string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? "";
  if (names.length <= shown) return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${names.slice(0, shown - 1).join(", ")} and ${names.length - shown + 1} more`;
}

export interface LearnerFilter {
  /** Typed into the search box: matched, case-insensitively, anywhere in the name, email or phone. */
  search: string;
  /** One course, or "" for All Courses. */
  course: string;
}

/** A learner in the staff list: what a collapsed card shows. */
export interface LearnerSummary {
  id: string;
  username: string;
  course: string;
  photoUrl: string | null;
  counts: Record<MessageKind, number>;
}

/** One learner as staff see them: their profile fields, and what they have and were sent. */
export type LearnerCard = Record<ProfileField, string> &
  LearnerSummary & {
    email: string;
    createdAt: string;
    taskLinks: { id: string; link: string; createdAt: string }[];
    resume: { fileName: string; uploadedAt: string; url: string } | null;
  };

/**
 * The list counts matching learners up to this many and past it says "More than 1,000": counting
 * every learner whose name contains one or two letters reads the whole table (no index serves
 * such a fragment), and that count was most of a search's time.
 */
export const learnerCountCap = 1000;

export interface LearnerPage {
  learners: LearnerSummary[];
  /** How many learners match, or null for more than `learnerCountCap`. */
  total: number | null;
  page: number;
  /** The last page, or null while the total is not known. */
  pages: number | null;
  /** Whether another page follows this one. */
  hasNext: boolean;
  pageSize: number;
}

/** Someone with a role, as the people page lists them. */
export interface Person {
  id: string;
  name: string;
  email: string;
  role: string;
  /** When they got this role (or, if it never changed, when the account was made). */
  since: string;
}

const kind = z.enum(messageKinds, { error: "Unknown message kind." });
// Raw HTML may be several times its sanitized size; the stored limit is checked after sanitizing.
const text = plain(100_000, "That text is too long.");
export const filter = {
  search: plain(textLimits.search, "The search is too long.").default(""),
  course: plain(200, "Unknown course.").default(""),
};

export const sendSchema = z.object({ learnerId: id.default(""), kind, html: text.default("") });
export const bulkSendSchema = z.object({
  ...filter,
  kind,
  html: text.default(""),
  /** The number the confirmation showed; the send is refused if the set changed since. */
  expectedCount: z.coerce.number({ error: "Unknown count." }).int().min(0).max(100_000_000),
});
/** Learner ids, comma-separated (a form field holds one string). */
export const learnerIds = plain(maxSelected * 201, staffMessages.tooManySelected)
  .default("")
  .transform((value, ctx) => {
    const ids = [...new Set(value.split(",").filter(Boolean))];
    if (ids.length === 0) ctx.addIssue({ code: "custom", message: staffMessages.selectSome });
    else if (ids.length > maxSelected) ctx.addIssue({ code: "custom", message: staffMessages.tooManySelected });
    else if (ids.some((one) => one.length > 200)) ctx.addIssue({ code: "custom", message: "Unknown id." });
    return ids;
  });
export const sendSelectedSchema = z.object({ learnerIds, kind, html: text.default("") });
/** A text as learners will see it, before it is sent. */
export const previewSchema = z.object({ kind, html: text.default("") });
export const clearSchema = z.object({ learnerId: id.default(""), kind });
export const deleteMessageSchema = z.object({ learnerId: id.default(""), messageId: id.default("") });
export const offerLetterSchema = z.object({ learnerId: id.default(""), html: text.default("") });
export const roleSchema = z.object({
  userId: id.pipe(z.string().min(1)),
  role: plain(40, "That role name is too long."),
});
/** The people page's URL: `?q=…`. */
export const peopleSearchSchema = z.object({ q: filter.search });

/** The learners a page of the staff list can show; the first is the default. */
export const pageSizes = [20, 50, 100] as const;

/** The staff workspace's URL: `?q=…&course=…&page=…&size=…`. */
export const searchSchema = z.object({
  q: filter.search,
  course: filter.course,
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  size: z.coerce
    .number()
    .refine((size) => pageSizes.some((allowed) => allowed === size))
    .catch(pageSizes[0]),
  /** The expanded card's learner. */
  selected: id.optional(),
  /** "exact": count every matching learner, past the cap (the bulk-send confirmation asks). */
  count: z.enum(["exact"], { error: "Unknown count." }).optional(),
});
