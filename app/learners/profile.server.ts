import { isAPIError } from "better-auth/api";
import { accessMessages } from "~/core/access";
import type { Auth } from "~/accounts/auth.server";
import { messages } from "~/accounts/messages";
import {
  firstPasswordChangeProblem,
  firstProfileEditProblem,
  type FieldProblem,
  type PasswordChangeField,
  type EditableProfile,
  type ProfileEditField,
} from "~/accounts/sign-up-schema";
import { signUpCourseOptions } from "~/catalogue/catalogue.server";
import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
import { staffTopic, userTopic } from "~/realtime/events";
import { writing } from "~/core/transaction.server";

/** What the settings page (and the dashboard, for the photo) says after each of a learner's own profile changes. */
export const profileMessages = {
  saved: "Your phone and course have been saved.",
  photoRemoved: "Your profile photo has been removed.",
  passwordChanged: "Your password has been changed. You have been signed out on every other device.",
  wrongCurrentPassword: "Your current password is not correct.",
} as const;

export type ProfileChange<F extends string> = { ok: true } | ({ ok: false } & FieldProblem<F>);

/**
 * Sets the signed-in user's phone and course, by the sign-up rules; staff views of them and the
 * user's other tabs are told. Only ever the caller's own row: the id comes from the session.
 * A learner whose course has left the sign-up options may keep it, not choose it again.
 */
export async function updateOwnProfile(
  { db, bus }: { db: Db; bus: EventBus },
  user: { id: string; course: string },
  input: EditableProfile,
): Promise<ProfileChange<ProfileEditField>> {
  const userId = user.id;
  const options = await signUpCourseOptions(db);
  const problem = firstProfileEditProblem(input, user.course ? [...options, user.course] : options);
  if (problem) return { ok: false, ...problem };
  await writing(db, { people: [userId] }, (trx) =>
    trx
      .updateTable("user")
      .set({ ...input, updatedAt: new Date().toISOString() })
      .where("id", "=", userId)
      .execute(),
  );
  await Promise.all([
    bus.publish(userTopic(userId), { type: "profile" }),
    bus.publish(staffTopic, { type: "profile", learnerId: userId }),
  ]);
  return { ok: true };
}

export type PasswordChangeOutcome =
  { ok: true; cookies: string[] } | ({ ok: false; status: number } & FieldProblem<PasswordChangeField | "">);

/**
 * Changes the signed-in user's password through better-auth, which checks the current one and
 * ends every session of the user; this one goes on under a new session whose Set-Cookie values
 * are `cookies`. better-auth's hook counts the attempt against the user's password-check limit.
 */
export async function changeOwnPassword(
  auth: Auth,
  request: Request,
  input: { currentPassword: string; newPassword: string; confirmPassword: string },
): Promise<PasswordChangeOutcome> {
  const problem = firstPasswordChangeProblem(input);
  if (problem) return { ok: false, status: 400, ...problem };
  try {
    const { headers } = await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: request.headers,
      returnHeaders: true,
    });
    return { ok: true, cookies: headers?.getSetCookie() ?? [] };
  } catch (error) {
    if (!isAPIError(error)) throw error;
    if (error.body?.code === "INVALID_PASSWORD") {
      return { ok: false, status: 400, field: "currentPassword", message: profileMessages.wrongCurrentPassword };
    }
    if (error.statusCode === 429) return { ok: false, status: 429, field: "", message: messages.tooManyAttempts };
    if (error.statusCode === 401) {
      return { ok: false, status: 401, field: "", message: accessMessages.signInRequired };
    }
    if (error.statusCode >= 500) throw error;
    // Anything else better-auth refuses (a control character) is about what was typed.
    return { ok: false, status: error.statusCode, field: "", message: error.body?.message ?? error.message };
  }
}
