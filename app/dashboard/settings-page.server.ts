import { data } from "react-router";
import { signUpCourseOptions } from "~/catalogue/catalogue.server";
import { refuse, requireUser } from "~/accounts/permissions.server";
import { accountSessions } from "~/accounts/account-sessions.server";
import { editableProfileFieldNames, type EditableProfile } from "~/accounts/sign-up-schema";
import { requestAccountDeletion } from "~/learners/account-deletion.server";
import { changeOwnPassword, profileMessages, updateOwnProfile } from "~/learners/profile.server";
import { emailKinds, emailPreferencesSchema, type EmailPreferences } from "~/mail/email-kinds";
import { readEmailPreferences, saveEmailPreferences } from "~/mail/email-preferences.server";
import { getServices } from "~/platform/services.server";
import { readOwnChange } from "./own-change.server";
import { currentInstitute } from "~/site/sections/institute.server";

/** What /settings shows: the person's own details, their email choices, and their data rights. */
export interface SettingsState {
  /** What the person changes themselves (phone and course). */
  profile: EditableProfile;
  /** The courses the profile's select offers: the sign-up options, and the person's own if it left them. */
  courseOptions: string[];
  /** Which emails the person gets, per kind. */
  emailPreferences: EmailPreferences;
  /** DIGEST_HOUR: when the daily digest goes out, in the institute's time zone. */
  digestHour: number;
}

/** The loader of /settings: everyone signed in (staff too have a password, emails and data). */
export async function loadSettings(request: Request) {
  const user = await requireUser(request);
  const services = await getServices();
  const db = services.database.db;
  const [emailPreferences, courseOptions] = await Promise.all([
    readEmailPreferences(db, user.id),
    signUpCourseOptions(db),
  ]);
  const settings: SettingsState = {
    // Read with the session, so the page makes no query of its own for them.
    profile: user.profile,
    courseOptions:
      user.profile.course && !courseOptions.includes(user.profile.course)
        ? [...courseOptions, user.profile.course]
        : courseOptions,
    emailPreferences,
    digestHour: services.config.digestHour,
  };
  return { user: { username: user.username, level: user.level }, settings };
}

export type SettingsData = Awaited<ReturnType<typeof loadSettings>>;

/** What the settings page's forms send as their `intent`: the cases of its action below. */
type SettingsIntent = "update-profile" | "change-password" | "delete-account" | "save-email-preferences";

declare module "~/core/intent-names" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the names are the members
  interface IntentNames extends Record<SettingsIntent, true> {}
}

/**
 * The settings' changes, by `intent`. The person is always the signed-in user: no intent takes
 * a user id, so an id from someone else names nothing this user's queries find.
 */
export async function settingsAction(request: Request) {
  const change = await readOwnChange(request);
  if ("refused" in change) return change.refused;
  const { user, field } = change;
  const services = await getServices();
  const deps = { db: services.database.db, bus: services.bus };

  switch (field("intent") as SettingsIntent) {
    case "update-profile": {
      const result = await updateOwnProfile(
        deps,
        { id: user.id, course: user.profile.course },
        Object.fromEntries(editableProfileFieldNames.map((name) => [name, field(name)])) as EditableProfile,
      );
      return result.ok
        ? { ok: true as const, message: profileMessages.saved }
        : refuse(400, result.message, { field: result.field });
    }
    case "change-password": {
      const result = await changeOwnPassword(services.auth, request, {
        currentPassword: field("currentPassword"),
        newPassword: field("newPassword"),
        confirmPassword: field("confirmPassword"),
      });
      if (!result.ok) return refuse(result.status, result.message, { field: result.field });
      // This tab goes on under the new session better-auth made; every other session has ended.
      const headers = new Headers({ "Cache-Control": "private, no-store" });
      for (const cookie of result.cookies) headers.append("Set-Cookie", cookie);
      return data({ ok: true as const, message: profileMessages.passwordChanged }, { headers });
    }
    case "delete-account": {
      const result = await requestAccountDeletion(
        {
          db: services.database.db,
          sessions: accountSessions(services.auth, services.database.db),
          mailer: services.mailer,
          logger: services.logger,
          institute: () => currentInstitute(services.database.db, services.config.site),
          appUrl: services.config.appUrl,
        },
        request,
        user,
        { password: field("password"), confirmation: field("confirmation") },
      );
      if (!result.ok) return refuse(result.status, result.message, { field: result.field });
      const headers = new Headers({ "Cache-Control": "private, no-store" });
      for (const cookie of result.cookies) headers.append("Set-Cookie", cookie);
      return data({ ok: true as const, message: "", eraseAfter: result.eraseAfter }, { headers });
    }
    case "save-email-preferences": {
      const parsed = emailPreferencesSchema.safeParse(
        Object.fromEntries(emailKinds.map((kind) => [kind, field(kind)])),
      );
      if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? "Invalid request.");
      await saveEmailPreferences(deps.db, user.id, parsed.data);
      return { ok: true as const, message: "Email settings saved." };
    }
    default:
      return refuse(400, "Unknown action.");
  }
}
