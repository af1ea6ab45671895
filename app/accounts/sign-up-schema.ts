import { z } from "zod";
import { signUpCourses } from "~/content/site-content";
import { emailPattern } from "./messages";

export const genders = [
  { value: "male", label: "Male" },
  { value: "female", label: "Female" },
] as const;

/**
 * Every rule of spec section 5, in its order. `firstSignUpProblem` reports only the first
 * failing rule, exactly as the sign-up form shows it; the server runs the same schema.
 */
const fields = {
  username: z.string({ error: "Username is required." }).trim().min(1, "Username is required."),
  phone: z
    .string({ error: "Phone number is required." })
    .min(1, { error: "Phone number is required.", abort: true })
    .length(10, "Invalid phone number."),
  course: z.enum(signUpCourses, { error: "Course selection is required." }),
  gender: z.enum(
    genders.map((g) => g.value),
    { error: "Gender selection is required." },
  ),
  email: z
    .string({ error: "Email is required." })
    .min(1, { error: "Email is required.", abort: true })
    .regex(emailPattern, "Invalid email format."),
  password: z.string({ error: "Password is required." }).min(1, "Password is required."),
  confirmPassword: z.string({ error: "Confirm Password is required." }).min(1, "Confirm Password is required."),
};

export const signUpSchema = z.object(fields).refine((form) => form.password === form.confirmPassword, {
  error: "Passwords do not match!",
  path: ["confirmPassword"],
});

export type SignUpForm = z.infer<typeof signUpSchema>;

/** The message of the first rule the input breaks, or null when it passes. */
export function firstSignUpProblem(input: unknown): string | null {
  const result = signUpSchema.safeParse(input);
  return result.success ? null : (result.error.issues[0]?.message ?? "Invalid sign-up details.");
}

/** A profile update: the sign-up rules for whichever of these fields it carries. */
const profileSchema = z.object({
  username: fields.username.optional(),
  phone: fields.phone.optional(),
  course: fields.course.optional(),
  gender: fields.gender.optional(),
});

export function firstProfileProblem(input: unknown): string | null {
  const result = profileSchema.safeParse(input);
  return result.success ? null : (result.error.issues[0]?.message ?? "Invalid profile details.");
}
