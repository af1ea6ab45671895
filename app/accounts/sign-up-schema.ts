import { z } from "zod";
import { hasLineBreakOrTab, singleLineMessage, textLimits } from "~/core/text";
import { isEmailAddress } from "./messages";

export const genders = [
  { value: "male", label: "Male" },
  { value: "female", label: "Female" },
] as const;

/** better-auth's own ceiling; said here so the form and the server give one message for it. */
const passwordMaxLength = 128;

/**
 * The shortest password better-auth accepts (set from here in auth.server.ts). The product has
 * no length rule of its own, so the form only says it beside the field; the provider refuses.
 */
export const passwordMinLength = 8;

/**
 * Every sign-up rule of the spec, in its order, then the limits every stored field has.
 * Each length is checked before anything that scans the text, and a failed check stops that
 * field (`abort`), so no later rule runs over an oversized value. `firstSignUpProblem`
 * reports only the first failing rule, exactly as the sign-up form shows it; the server runs
 * the same schema.
 */
export const courseMessages = {
  required: "Course selection is required.",
  notOffered: "That course is not offered. Please choose one from the list.",
} as const;

/**
 * A course from the sign-up options (admins keep them on /staff/courses): the server reads them
 * from the database for each check, the browser has them from its page's loader.
 */
function courseRule(courseOptions: readonly string[]) {
  const offered = new Set(courseOptions);
  return z
    .string({ error: courseMessages.required })
    .min(1, { error: courseMessages.required, abort: true })
    .max(textLimits.name, { error: courseMessages.notOffered, abort: true })
    .refine((value) => offered.has(value), courseMessages.notOffered);
}

/**
 * The profile: what a learner gives at sign-up besides email and password, stored on their
 * user row, changeable by them, and shown to staff under `label`. A new profile field is its
 * rule here and its line in `profileFields` below, and its column (a migration and
 * app/db/schema.ts); the forms, the staff card, the CSV import and export and the learner's
 * data download all follow from these two lists.
 */
const profileRulesFor = (courseOptions: readonly string[]) => ({
  username: z
    .string({ error: "Username is required." })
    .max(textLimits.name * 4, { error: `Username must be at most ${textLimits.name} characters.`, abort: true })
    // Before the trim, which would drop a trailing line break unseen but keep one inside.
    .refine((value) => !hasLineBreakOrTab(value), { error: singleLineMessage, abort: true })
    .trim()
    .min(1, { error: "Username is required.", abort: true })
    .max(textLimits.name, { error: `Username must be at most ${textLimits.name} characters.`, abort: true })
    // Zero-width and other invisible characters alone are not a name anyone can read.
    .regex(/[\p{L}\p{N}]/u, "Username must contain a letter or a digit."),
  phone: z
    .string({ error: "Phone number is required." })
    .min(1, { error: "Phone number is required.", abort: true })
    .length(10, { error: "Invalid phone number.", abort: true })
    .regex(/^[0-9]{10}$/, "Invalid phone number."),
  course: courseRule(courseOptions),
  gender: z.enum(
    genders.map((g) => g.value),
    { error: "Gender selection is required." },
  ),
});

type ProfileRules = ReturnType<typeof profileRulesFor>;

export type ProfileField = keyof ProfileRules;

/** How a profile field is typed: a text box, the course select, or one of a few choices (radios). */
export type ProfileInput =
  | { kind: "text"; label: string; autoComplete: string; inputMode?: "numeric"; maxLength?: number }
  | { kind: "course"; label: string }
  | { kind: "choice"; label: string; options: readonly { value: string; label: string }[] };

export interface ProfileFieldSpec {
  /** How staff see it (the learner's card) and the learner's data download names it. */
  label: string;
  shown?: (value: string) => string;
  /** Its input on the sign-up form (and on the settings page, when `editable`). */
  input: ProfileInput;
  /** The learner changes it on their settings page after sign-up. */
  editable?: true;
  /** Its column in the learner CSVs (import and export), when not the field's name. */
  column?: string;
}

/** Every profile field, in the order the forms, the staff card and the CSVs show them. */
export const profileFields = {
  username: { label: "Name", column: "name", input: { kind: "text", label: "Username", autoComplete: "username" } },
  // A text field: HTML lets the national number's autofill (10 digits, no +91) fill text fields
  // only, not tel ones; inputMode gives the same numeric keypad.
  phone: {
    label: "Phone",
    editable: true,
    input: { kind: "text", label: "Phone", autoComplete: "tel-national", inputMode: "numeric", maxLength: 10 },
  },
  course: { label: "Course", editable: true, input: { kind: "course", label: "Course" } },
  gender: {
    label: "Gender",
    shown: (value) => genders.find((g) => g.value === value)?.label ?? value,
    input: { kind: "choice", label: "Gender", options: genders },
  },
} as const satisfies Record<ProfileField, ProfileFieldSpec>;

export const profileFieldNames = Object.keys(profileFields) as ProfileField[];

/** The fields a learner changes on their dashboard. */
export type EditableProfileField = {
  [K in ProfileField]: (typeof profileFields)[K] extends { editable: true } ? K : never;
}[ProfileField];

export const editableProfileFieldNames = profileFieldNames.filter(
  (name): name is EditableProfileField => "editable" in profileFields[name],
);

/** A learner's own values of the fields they change on their settings page. */
export type EditableProfile = Record<EditableProfileField, string>;

/** One profile field's line of `profileFields`, as its common shape. */
export const profileField = (name: ProfileField): ProfileFieldSpec => profileFields[name];

/** The learner CSVs' columns: the email, and each profile field's `column` or name. */
export type LearnerCsvColumn =
  | "email"
  | { [K in ProfileField]: (typeof profileFields)[K] extends { column: infer C extends string } ? C : K }[ProfileField];

/** A profile field's column in the learner CSVs. */
export const profileColumn = (name: ProfileField) => (profileField(name).column ?? name) as LearnerCsvColumn;

/** The profile fields after the name (better-auth's `name` is the username by another name). */
export const profileFieldsAfterName = profileFieldNames.filter((name) => name !== "username");

/** The learner CSVs' detail columns (the import's and the export's): the name, the email, then the other profile fields. */
export const learnerCsvColumns: readonly LearnerCsvColumn[] = [
  profileColumn("username"),
  "email",
  ...profileFieldsAfterName.map(profileColumn),
];

const accountRules = {
  email: z
    .string({ error: "Email is required." })
    .min(1, { error: "Email is required.", abort: true })
    .max(textLimits.email, { error: `Email must be at most ${textLimits.email} characters.`, abort: true })
    .refine(isEmailAddress, "Invalid email format."),
  password: z
    .string({ error: "Password is required." })
    .min(1, { error: "Password is required.", abort: true })
    .max(passwordMaxLength, `Password must be at most ${passwordMaxLength} characters.`),
  confirmPassword: z
    .string({ error: "Confirm Password is required." })
    .min(1, { error: "Confirm Password is required.", abort: true })
    .max(passwordMaxLength, `Password must be at most ${passwordMaxLength} characters.`),
};

/** Every schema that checks a course, built for one list of sign-up course options. */
function schemasFor(courseOptions: readonly string[]) {
  const profileRules = profileRulesFor(courseOptions);
  const fields = { ...profileRules, ...accountRules };
  return {
    signUp: z.object(fields).refine((form) => form.password === form.confirmPassword, {
      error: "Passwords do not match!",
      path: ["confirmPassword"],
    }),
    /**
     * A learner made by an admin (the CSV import): the profile and the email by the sign-up
     * rules, with no password (the learner chooses one from the invitation). Each field reports
     * its first problem, and every field is checked.
     */
    learnerDetails: z.object({ ...profileRules, email: accountRules.email }),
    /**
     * A profile update: the sign-up rules for whichever of these fields it carries (better-auth's
     * `name` is the username by another name). Anything else is not the learner's to change here.
     */
    profile: z.strictObject(
      {
        name: profileRules.username.optional(),
        ...(Object.fromEntries(profileFieldNames.map((name) => [name, profileRules[name].optional()])) as {
          [K in ProfileField]: z.ZodOptional<ProfileRules[K]>;
        }),
      },
      {
        error: `Only the name, ${profileFieldNames.slice(0, -1).join(", ")} and ${profileFieldNames.at(-1)} can be changed here.`,
      },
    ),
    /** What a learner changes on their settings page (`editable` fields), by the sign-up rules and messages. */
    profileEdit: z.object(
      Object.fromEntries(editableProfileFieldNames.map((name) => [name, profileRules[name]])) as {
        [K in EditableProfileField]: ProfileRules[K];
      },
    ),
  };
}

type Schemas = ReturnType<typeof schemasFor>;

// The options change only when an admin edits them, so the last list's schemas are kept.
let lastSchemas: { key: string; schemas: Schemas } | undefined;

function schemas(courseOptions: readonly string[]): Schemas {
  const key = courseOptions.join("\n");
  if (lastSchemas?.key !== key) lastSchemas = { key, schemas: schemasFor(courseOptions) };
  return lastSchemas.schemas;
}

/** The sign-up form's schema for these course options. */
export const signUpSchemaFor = (courseOptions: readonly string[]) => schemas(courseOptions).signUp;

/** The CSV import's schema for a learner's details, for these course options. */
export const learnerDetailsSchemaFor = (courseOptions: readonly string[]) => schemas(courseOptions).learnerDetails;

export type SignUpForm = z.infer<Schemas["signUp"]>;
export type LearnerDetails = z.infer<Schemas["learnerDetails"]>;

export type SignUpField = ProfileField | keyof typeof accountRules;

const signUpFieldNames: readonly string[] = [...profileFieldNames, ...Object.keys(accountRules)];

/** The first rule the input breaks: its message and the field it is about (none for a non-object). */
export function firstSignUpIssue(
  input: unknown,
  courseOptions: readonly string[],
): { message: string; field?: SignUpField } | null {
  const problem = firstFieldProblem<string | undefined>(schemas(courseOptions).signUp, input);
  if (!problem) return null;
  const { field, message } = problem;
  return {
    message,
    field: typeof field === "string" && signUpFieldNames.includes(field) ? (field as SignUpField) : undefined,
  };
}

/** The message of the first rule the input breaks, or null when it passes. */
export function firstSignUpProblem(input: unknown, courseOptions: readonly string[]): string | null {
  return firstSignUpIssue(input, courseOptions)?.message ?? null;
}

export function firstProfileProblem(input: unknown, courseOptions: readonly string[]): string | null {
  const result = schemas(courseOptions).profile.safeParse(input);
  return result.success ? null : (result.error.issues[0]?.message ?? "Invalid profile details.");
}

/** The field a message is about, so a form can put it there and move focus to that input. */
export interface FieldProblem<F extends string | undefined> {
  field: F;
  message: string;
}

function firstFieldProblem<F extends string | undefined>(schema: z.ZodType, input: unknown): FieldProblem<F> | null {
  const result = schema.safeParse(input);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  return { field: issue.path[0] as F, message: issue.message };
}

export type ProfileEdit = z.infer<Schemas["profileEdit"]>;
export type ProfileEditField = keyof ProfileEdit;

/** The settings page's phone-and-course change for these course options: its form and the server check it. */
export const profileEditSchemaFor = (courseOptions: readonly string[]) => schemas(courseOptions).profileEdit;

/** The first rule a phone-and-course change breaks (in the sign-up order), or null. */
export function firstProfileEditProblem(
  input: unknown,
  courseOptions: readonly string[],
): FieldProblem<ProfileEditField> | null {
  return firstFieldProblem(schemas(courseOptions).profileEdit, input);
}

/** A signed-in password change: the current password, then the new one twice by the sign-up rules. */
export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string({ error: "Current Password is required." })
      .min(1, { error: "Current Password is required.", abort: true })
      .max(passwordMaxLength, `Password must be at most ${passwordMaxLength} characters.`),
    newPassword: accountRules.password.min(
      passwordMinLength,
      `Password must be at least ${passwordMinLength} characters.`,
    ),
    confirmPassword: accountRules.confirmPassword,
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    error: "Passwords do not match!",
    path: ["confirmPassword"],
  });

export type PasswordChange = z.infer<typeof passwordChangeSchema>;
export type PasswordChangeField = keyof PasswordChange;

/** The first rule a password change breaks, or null. */
export function firstPasswordChangeProblem(input: unknown): FieldProblem<PasswordChangeField> | null {
  return firstFieldProblem(passwordChangeSchema, input);
}
