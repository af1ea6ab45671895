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
