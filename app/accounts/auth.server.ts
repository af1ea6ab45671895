import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { signUpCourseOptions } from "~/catalogue/catalogue.server";
import type { Config } from "~/config/config.server";
import type { Db, Dialect } from "~/db/database.server";
import { CLIENT_IP_HEADER } from "~/http/request-context";
import type { Logger } from "~/logging/logger.server";
import { cancelAccountDeletion } from "~/learners/account-deletion.server";
import { recipientTag, type Mailer } from "~/mail/mailer.server";
import { passwordResetMessage } from "./account-mail.server";
import { currentInstitute } from "~/site/sections/institute.server";
import { consumeAttempt } from "~/security/rate-limit.server";
import { controlCharacterMessage, hasControlCharacters, textLimits } from "~/core/text";
import { consumeEmailAttempt, passwordCheckLimit, type AttemptKind } from "./email-rate-limit.server";
import { isEmailAddress, messages } from "./messages";
import {
  firstProfileProblem,
  firstSignUpProblem,
  passwordMinLength,
  profileFieldNames,
  signUpSchemaFor,
} from "./sign-up-schema";

/** The profile's columns on better-auth's user, one per profile field. */
const profileColumns = Object.fromEntries(
  profileFieldNames.map((name) => [name, { type: "string", required: false } as const]),
) as Record<(typeof profileFieldNames)[number], { type: "string"; required: false }>;

export interface AuthDependencies {
  db: Db;
  dialect: Dialect;
  config: Config;
  logger: Logger;
  mailer: Mailer;
  /** Signs session cookies (AUTH_SECRET, or the one kept in the database). */
  secret: string;
  /** Told after a sign-up has created an account (the staff dashboard's live list). */
  onSignUp?: (userId: string) => void;
}

/** The endpoints whose attempts are also counted per email address. */
const emailLimitedPaths: Record<string, AttemptKind> = {
  "/sign-in/email": "sign-in",
  "/sign-up/email": "sign-up",
  "/request-password-reset": "reset",
};

/** Endpoints that check a signed-in user's password: guessing through them is limited like sign-in. */
const passwordCheckPaths = new Set(["/verify-password", "/change-password"]);

/** Refuses what no auth endpoint can use: a body that isn't an object, control characters in any value. */
function refuseUnusableInput(ctx: { body?: unknown; query?: unknown; params?: unknown }): void {
  const body = ctx.body;
  if (body !== undefined && body !== null && (typeof body !== "object" || Array.isArray(body))) {
    throw new APIError("BAD_REQUEST", { message: "Send the fields as a JSON object." });
  }
  for (const values of [body, ctx.query, ctx.params]) {
    if (!values || typeof values !== "object") continue;
    for (const value of Object.values(values)) {
      // PostgreSQL refuses NUL outright; no other control character belongs in these fields.
      if (typeof value === "string" && hasControlCharacters(value)) {
        throw new APIError("BAD_REQUEST", { message: controlCharacterMessage });
      }
    }
  }
}

const loggedLevels = new Set(["debug", "info", "warn", "error"]);

/** better-auth's log lines and API errors, in our logger. */
function authLogging(authLogger: Logger) {
  return {
    logger: {
      level: "warn" as const,
      log(level: string, message: string) {
        // Only the message: its arguments may hold request data.
        if (loggedLevels.has(level)) authLogger[level as "debug" | "info" | "warn" | "error"](message);
      },
    },
    onAPIError: {
      // A refusal (wrong password, validation, rate limit) is routine; only failures are errors.
      onError(error: unknown) {
        if (isAPIError(error) && error.statusCode < 500) {
          authLogger.debug({ status: error.statusCode, message: error.message }, "auth request refused");
        } else {
          authLogger.error({ err: error }, "auth request failed");
        }
      },
    },
  };
}

/** Emails the reset link without waiting: the answer must not take longer for an address that has an account. */
function passwordResetSender(db: Db, config: Config, mailer: Mailer, authLogger: Logger) {
  return async ({ user, token }: { user: { email: string; name: string }; token: string }) => {
    const link = `${config.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
    // The institute's name as stored now, read after the answer has gone.
    const send = async () => {
      const { name: siteName } = await currentInstitute(db, config.site);
      const name = (user as { username?: string | null }).username || user.name;
      await mailer.send(passwordResetMessage({ to: user.email, name, link, siteName }));
    };
    send().catch((error: unknown) => {
      authLogger.error({ err: error, recipient: recipientTag(user.email) }, "password reset email could not be sent");
    });
  };
}

/**
 * A sign-up's body cut to the form's fields: `role`, `image` and anything else a client adds
 * are dropped. In place, because better-auth merges a returned body with the original.
 */
function keepOnlySignUpFields(body: Record<string, unknown>, courseOptions: readonly string[]): void {
  const form = signUpSchemaFor(courseOptions).parse(body);
  const allowed: Record<string, unknown> = { name: form.username, email: form.email, password: form.password };
  for (const name of profileFieldNames) allowed[name] = form[name];
  if (typeof body.rememberMe === "boolean") allowed.rememberMe = body.rememberMe;
  for (const key of Object.keys(body)) delete body[key];
  Object.assign(body, allowed);
}

/** better-auth on the app's own database, with this product's rules. */
export function createAuth({ db, dialect, config, logger, mailer, secret, onSignUp }: AuthDependencies) {
  const https = config.appUrl.startsWith("https:");
  const perIp = { window: 60, max: config.authRateLimit };
  const authLogger = logger.child({ component: "auth" });

  return betterAuth({
    appName: config.site.name,
    baseURL: config.appUrl,
    basePath: "/api/auth",
    secret,
    database: { db, type: dialect },
    // A state-changing request must come from the site itself.
    trustedOrigins: [new URL(config.appUrl).origin],
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: passwordMinLength,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: passwordResetSender(db, config, mailer, authLogger),
    },
    user: {
      additionalFields: {
        ...profileColumns,
        // Never from a request: only `npm run role` sets it.
        role: { type: "string", required: false, input: false },
      },
    },
    session: {
      // Every request asks the database, so a revoked session ends at once.
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 300,
      customRules: {
        "/sign-in/email": perIp,
        "/sign-up/email": perIp,
        "/request-password-reset": perIp,
        "/verify-password": perIp,
        "/change-password": perIp,
      },
    },
    advanced: {
      // Our HTTP server sets this header to the real client address and drops any client-sent one.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: https },
    },
    ...authLogging(authLogger),
    hooks: {
      after: createAuthMiddleware(async (ctx) => {
        const created = ctx.path === "/sign-up/email" ? ctx.context.newSession?.user : undefined;
        if (created) onSignUp?.(created.id);
        // Signing in during the grace period keeps an account its owner asked to delete.
        const signedIn = ctx.path === "/sign-in/email" ? ctx.context.newSession?.user : undefined;
        if (signedIn) {
          await cancelAccountDeletion(
            { db, mailer, logger: authLogger, institute: () => currentInstitute(db, config.site) },
            signedIn,
          );
        }
      }),
      before: createAuthMiddleware(async (ctx) => {
        refuseUnusableInput(ctx);
        const clientIp = ctx.request?.headers.get(CLIENT_IP_HEADER) ?? ctx.headers?.get(CLIENT_IP_HEADER) ?? "unknown";
        if (ctx.path === "/update-user") {
          // A profile change: `role` is dropped, the sign-up fields keep the sign-up rules.
          const body = (ctx.body ?? {}) as Record<string, unknown>;
          delete body.role;
          const problem = firstProfileProblem(body, await signUpCourseOptions(db));
          if (problem) throw new APIError("BAD_REQUEST", { message: problem });
          return;
        }
        if (passwordCheckPaths.has(ctx.path)) {
          const session = await getSessionFromCtx(ctx);
          if (session && !(await consumeAttempt(db, `password-check:${session.user.id}`, passwordCheckLimit))) {
            throw new APIError("TOO_MANY_REQUESTS", { message: messages.tooManyAttempts });
          }
          return;
        }
        const kind = emailLimitedPaths[ctx.path];
        if (!kind) return;
        const body = (ctx.body ?? {}) as Record<string, unknown>;

        // The courses sign-up offers now, as admins keep them.
        const courseOptions = kind === "sign-up" ? await signUpCourseOptions(db) : [];
        if (kind === "sign-up") {
          // The same rules as the form, first failure first; nothing is created on failure.
          const problem = firstSignUpProblem(body, courseOptions);
          if (problem) throw new APIError("BAD_REQUEST", { message: problem });
        }
        if (kind === "reset") {
          const email = typeof body.email === "string" ? body.email : "";
          if (!email) throw new APIError("BAD_REQUEST", { message: messages.emailRequired });
          if (email.length > textLimits.email || !isEmailAddress(email)) {
            throw new APIError("BAD_REQUEST", { message: messages.resetEmailInvalid });
          }
        }

        // A sign-in email can be anything typed; only a plausible one is worth a counter row.
        const email = typeof body.email === "string" && body.email.length <= textLimits.email ? body.email : "";
        if (kind === "sign-in" && typeof body.email === "string" && !email) {
          throw new APIError("UNAUTHORIZED", { message: "Invalid email or password" });
        }
        if (email && !(await consumeEmailAttempt(db, kind, email, clientIp))) {
          throw new APIError("TOO_MANY_REQUESTS", { message: messages.tooManyAttempts });
        }

        if (kind === "sign-up") keepOnlySignUpFields(body, courseOptions);
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** AUTH_SECRET, or a random one made on first start and kept in the database for every instance. */
export async function authSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto("appSecret")
    .values({ name: "auth", value: randomBytes(32).toString("base64url") })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("appSecret").select("value").where("name", "=", "auth").executeTakeFirstOrThrow();
  return row.value;
}

/** An auth for this database and configuration, with its mailer and its secret (configured or stored). */
export async function createAuthFor(dependencies: Omit<AuthDependencies, "secret">): Promise<Auth> {
  const { db, config } = dependencies;
  return createAuth({ ...dependencies, secret: await authSecret(db, config.authSecret) });
}
