/** Texts of the account screens that both the browser and the server use. */
export const messages = {
  tooManyAttempts: "Too many attempts. Please try again later.",
  emailRequired: "Email is required.",
  resetEmailInvalid: "Invalid email format. Please enter a valid email.",
  resetSent: "Password reset email sent successfully! Please check your inbox.",
  resetToast: "Reset email sent successfully!",
  /** Below the spec's text: the answer is the same whether or not the email has an account. */
  resetMaybe: "If an account exists for that email, the link is on its way.",
  emailTaken: "An account with this email already exists. Please log in instead.",
  somethingWentWrong: "Something went wrong. Please try again.",
} as const;

/**
 * something@something.something with no spaces: one `@` with text before it, and a dot inside
 * the part after it. Checked by scanning, once, so a hostile 100 KB "address" costs a
 * microsecond (a backtracking pattern froze the server on one). Callers cap the length first.
 */
export function isEmailAddress(value: string): boolean {
  const at = value.indexOf("@");
  if (at < 1 || value.indexOf("@", at + 1) !== -1 || /\s/.test(value)) return false;
  return value.slice(at + 2, -1).includes(".");
}
