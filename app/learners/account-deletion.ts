import { z } from "zod";

// "Delete my account": what the form and the server agree on.

/** Days between asking to delete an account and its erasure; signing in meanwhile cancels it. */
export const deletionGraceDays = 7;

/** What the learner types to confirm. */
export const deletionConfirmationWord = "DELETE";

export const deletionMessages = {
  passwordRequired: "Enter your password.",
  wrongPassword: "That password is not right.",
  confirmationRequired: `Type ${deletionConfirmationWord} to confirm.`,
  /** The name that replaces an erased learner's in the audit log. */
  deletedLearner: "Deleted learner",
  /** Why an erased learner's documents no longer hold. */
  documentRevoked: "Holder deleted their account",
};

/** The form's rules, checked in the browser and again on the server, before the password itself. */
export const accountDeletionSchema = z.object({
  password: z.string().min(1, deletionMessages.passwordRequired),
  confirmation: z
    .string()
    .refine((typed) => typed.trim() === deletionConfirmationWord, deletionMessages.confirmationRequired),
});
