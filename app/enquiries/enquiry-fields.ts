// The enquiry form's fields and the inbox's words, shared by the pages and the server.
import { z } from "zod";
import { isEmailAddress } from "~/accounts/messages";
import { hasControlCharacters, hasLineBreakOrTab, textLimits } from "~/core/text";

export const enquiryStatuses = ["new", "contacted", "enrolled", "closed"] as const;
export type EnquiryStatus = (typeof enquiryStatuses)[number];

export const enquiryStatusLabels: Record<EnquiryStatus, string> = {
  new: "New",
  contacted: "Contacted",
  enrolled: "Enrolled",
  closed: "Closed",
};

export const callbackTimes = ["morning", "afternoon", "evening", "any"] as const;
export type CallbackTime = (typeof callbackTimes)[number];

export const callbackTimeLabels: Record<CallbackTime, string> = {
  morning: "Morning (9 am to 12 noon)",
  afternoon: "Afternoon (12 noon to 4 pm)",
  evening: "Evening (4 pm to 8 pm)",
  any: "Any time",
};

/** The course choice for someone who has not decided. */
export const notSureYet = "Not sure yet";

export const enquiryLimits = {
  message: 2_000,
  note: 2_000,
} as const;

/** The least time, in milliseconds, between the form appearing and a person sending it. */
export const minimumFillMs = 3_000;

export const enquiryMessages = {
  sent: (name: string) =>
    `Thank you, ${name}. We have your enquiry and will call you back at the time you chose. A copy went to our team.`,
  check: "Please check your details, then press Send enquiry.",
  tooFast:
    "That was sent within 3 seconds of the form appearing, faster than a person types. Please check your details and press Send enquiry again.",
  refused: "Your enquiry was not sent. Please call or email us instead, using the details beside this form.",
  tooMany: "Too many enquiries have come from your network in the last hour. Please call or email us instead.",
  fixFields: "Please correct the fields marked below.",
} as const;

/** A text field: trimmed, length checked first (no pattern ever runs over more), no control characters. */
const text = (label: string, max: number, multiline = false) =>
  z
    .string({ error: `${label} is required.` })
    .max(max, { error: `${label} must be at most ${max.toLocaleString("en-IN")} characters.`, abort: true })
    .refine((value) => !hasControlCharacters(value) && (multiline || !hasLineBreakOrTab(value)), {
      error: `${label} must be plain text.`,
      abort: true,
    })
    .transform((value) => value.trim())
    .pipe(z.string().min(1, `${label} is required.`));

/** The enquiry form's rules; `courses` are the choices the form offered (enquiryCourses()). */
export function enquirySchema(courses: readonly string[]) {
  return z.object({
    name: text("Name", textLimits.name),
    phone: z
      .string({ error: "Phone number is required." })
      .min(1, { error: "Phone number is required.", abort: true })
      .length(10, { error: "Phone number must be 10 digits.", abort: true })
      .regex(/^[0-9]{10}$/, "Phone number must be 10 digits."),
    email: z
      .string()
      .max(textLimits.email, { error: `Email must be at most ${textLimits.email} characters.`, abort: true })
      .transform((value) => value.trim())
      .refine((value) => value === "" || isEmailAddress(value), "Enter a valid email address, or leave it empty."),
    course: z
      .string({ error: "Choose a course, or Not sure yet." })
      .max(200, { error: "Choose a course, or Not sure yet.", abort: true })
      .refine((value) => courses.includes(value), "Choose a course, or Not sure yet."),
    message: text("Message", enquiryLimits.message, true),
    callbackTime: z.enum(callbackTimes, { error: "Choose when we should call you back." }),
  });
}

export type EnquiryInput = z.infer<ReturnType<typeof enquirySchema>>;
export type EnquiryField = keyof EnquiryInput;
export const enquiryFieldNames = [
  "name",
  "phone",
  "email",
  "course",
  "message",
  "callbackTime",
] as const satisfies readonly EnquiryField[];

/** An enquiry's id as a staff form sends it. */
const enquiryId = z.string().min(1, "Choose an enquiry.").max(100, "Choose an enquiry.");

export const enquiryStatusSchema = z.object({
  enquiryId,
  status: z.enum(enquiryStatuses, { error: "Choose new, contacted, enrolled or closed." }),
});

export const enquiryNoteSchema = z.object({
  enquiryId,
  note: text("Note", enquiryLimits.note, true),
});

export const enquiryInviteSchema = z.object({ enquiryId });

/** The inbox's address: which status (none: all), which page, which enquiry is open. */
export const inboxSearchSchema = z.object({
  status: z.enum(enquiryStatuses).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  selected: z.string().max(100).optional(),
});
