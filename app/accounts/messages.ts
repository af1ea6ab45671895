/** Texts of the account screens that both the browser and the server use (spec sections 5 and 8). */
export const messages = {
  tooManyAttempts: "Too many attempts. Please try again later.",
  emailRequired: "Email is required.",
  resetEmailInvalid: "Invalid email format. Please enter a valid email.",
  resetSent: "Password reset email sent successfully! Please check your inbox.",
  resetToast: "Reset email sent successfully!",
  emailTaken: "An account with this email already exists. Please log in instead.",
  somethingWentWrong: "Something went wrong. Please try again.",
} as const;

/** something@something.something with no spaces (spec section 5). */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
