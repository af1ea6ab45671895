import { isAPIError } from "better-auth/api";
import { hasControlCharacters } from "~/core/text";
import type { Auth } from "./auth.server";

/** The account a reset token belongs to, when the token is unused and unexpired. */
export async function resetTokenOwner(auth: Auth, token: string): Promise<{ id: string; email: string } | null> {
  // Real tokens are short and plain; anything else (PostgreSQL refuses NUL) is simply no link.
  if (!token || token.length > 200 || hasControlCharacters(token)) return null;
  const context = await auth.$context;
  const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!verification || new Date(verification.expiresAt).getTime() < Date.now()) return null;
  const user = await context.internalAdapter.findUserById(verification.value);
  return user ? { id: user.id, email: user.email } : null;
}

export type ResetOutcome =
  { status: "done"; cookies: string[] } | { status: "link-invalid" } | { status: "refused"; message: string };

/**
 * Sets the new password (better-auth uses the token up and ends the account's other sessions),
 * then signs the user in; `cookies` are the session's Set-Cookie values.
 */
export async function completePasswordReset(
  auth: Auth,
  request: Request,
  token: string,
  newPassword: string,
): Promise<ResetOutcome> {
  const owner = await resetTokenOwner(auth, token);
  if (!owner) return { status: "link-invalid" };
  try {
    await auth.api.resetPassword({ body: { newPassword, token }, headers: request.headers });
  } catch (error) {
    if (isAPIError(error)) {
      if (error.body?.code === "INVALID_TOKEN") return { status: "link-invalid" };
      return { status: "refused", message: error.body?.message ?? error.message };
    }
    throw error;
  }
  try {
    const response = await auth.api.signInEmail({
      body: { email: owner.email, password: newPassword },
      headers: request.headers,
      asResponse: true,
    });
    return { status: "done", cookies: response.ok ? response.headers.getSetCookie() : [] };
  } catch {
    // The password is set; only the automatic sign-in failed (a rate limit): log in by hand.
    return { status: "done", cookies: [] };
  }
}
