import { z } from "zod";
import { plain } from "~/core/fields";
import { textLimits } from "~/core/text";
import { applicationStages, type ApplicationStage } from "~/placement/stages";
import { maxSelected, staffMessages } from "./staff-messages";

// The staff search and course filter over learners, and a chosen set of learners: the fields a
// staff form sends, shared by the workspace and the document issues.

export interface LearnerFilter {
  /** Typed into the search box: matched, case-insensitively, anywhere in the name, email or phone. */
  search: string;
  /** One course, or "" for All Courses. */
  course: string;
  /**
   * Enrolled in this batch (its id); "mine": in a batch `trainerId` trains; "all" or "" for any
   * ("all" is a trainer's explicit choice: without a batch they start with their own).
   */
  batch?: string;
  /** Whose batches "mine" means: the staff member reading or acting, set by the server. */
  trainerId?: string;
  /** Only learners who have not uploaded a resume. */
  noResume?: boolean;
  /** Only learners with a notice, task, certificate or offer letter they have not opened. */
  unread?: boolean;
  /** Only learners not seen for at least this many days (never seen counts), or 0 for any. */
  inactiveDays?: number;
  /** Only learners with a job application at this stage, or "" for any. */
  stage?: ApplicationStage | "";
  /** Joined on or after this day ('YYYY-MM-DD' in the institute's time zone), or "". */
  joinedFrom?: string;
  /** Joined on or before this day, or "". */
  joinedTo?: string;
}

/** When a filter is read: what 'not active for N days' and the joining days are measured against. */
export interface FilterClock {
  timeZone: string;
  now: number;
}

export const filterMessages = {
  badDate: "Please enter a date as YYYY-MM-DD.",
  datesReversed: "The 'joined from' date is after the 'joined to' date.",
  badDays: "Please enter a number of days from 1 to 3650.",
  badStage: "Unknown placement stage.",
  badFlag: "Unknown filter value.",
} as const;

/** A 'YYYY-MM-DD' that is a real day, or "" for none. */
export const day = z
  .string()
  .max(10, { error: filterMessages.badDate, abort: true })
  .refine((value) => {
    if (value === "") return true;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, filterMessages.badDate)
  .default("");
/** A ticked filter: "1", or "" (or absent) for off. */
const flag = z
  .enum(["", "1"], { error: filterMessages.badFlag })
  .default("")
  .transform((value) => value === "1");

/** The search box and every filter, as a form or the URL sends them (the URL calls the search `q`). */
export const filter = {
  search: plain(textLimits.search, "The search is too long.").default(""),
  course: plain(200, "Unknown course.").default(""),
  batch: plain(200, "Unknown batch.").default(""),
  noResume: flag,
  unread: flag,
  inactive: z
    .union([z.literal(""), z.coerce.number({ error: filterMessages.badDays }).int(filterMessages.badDays)])
    .default("")
    .transform((value) => (value === "" ? 0 : value))
    .pipe(z.number().min(0, filterMessages.badDays).max(3650, filterMessages.badDays)),
  stage: z.enum(["", ...applicationStages], { error: filterMessages.badStage }).default(""),
  from: day,
  to: day,
};

/** The batch filter's two words besides a batch id. */
export const myBatches = "mine";
export const allBatches = "all";

/**
 * The form's (or address's) filter fields as a LearnerFilter; `viewerId` is the staff member
 * reading or acting, whose batches "mine" names.
 */
export function filterOf(
  fields: {
    search: string;
    course: string;
    batch: string;
    noResume: boolean;
    unread: boolean;
    inactive: number;
    stage: ApplicationStage | "";
    from: string;
    to: string;
  },
  viewerId?: string,
): LearnerFilter {
  return {
    search: fields.search,
    course: fields.course,
    batch: fields.batch,
    ...(fields.batch === myBatches ? { trainerId: viewerId ?? "" } : {}),
    noResume: fields.noResume,
    unread: fields.unread,
    inactiveDays: fields.inactive,
    stage: fields.stage,
    joinedFrom: fields.from,
    joinedTo: fields.to,
  };
}

/** A LearnerFilter as form fields (a bulk action posts the list's filter). */
export function filterFields(filter: LearnerFilter): Record<string, string> {
  return {
    search: filter.search,
    course: filter.course,
    batch: filter.batch ?? "",
    noResume: filter.noResume ? "1" : "",
    unread: filter.unread ? "1" : "",
    inactive: filter.inactiveDays ? String(filter.inactiveDays) : "",
    stage: filter.stage ?? "",
    from: filter.joinedFrom ?? "",
    to: filter.joinedTo ?? "",
  };
}

/** A filter as the workspace's address writes it (`q` for the search), empty values left out. */
export function filterQuery(filter: LearnerFilter): string {
  const { search, ...rest } = filterFields(filter);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ q: (search ?? "").trim(), ...rest })) if (value) params.set(name, value);
  return params.toString();
}

/** Whether the dates are the right way round (checked by each schema that takes the filter). */
export const datesInOrder = (fields: { from: string; to: string }) =>
  !fields.from || !fields.to || fields.from <= fields.to;

/** Whether any filter or search narrows the list. */
export function isFiltered(filter: LearnerFilter): boolean {
  return Boolean(
    filter.search.trim() ||
    filter.course ||
    (filter.batch && filter.batch !== allBatches) ||
    filter.noResume ||
    filter.unread ||
    filter.inactiveDays ||
    filter.stage ||
    filter.joinedFrom ||
    filter.joinedTo,
  );
}

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
