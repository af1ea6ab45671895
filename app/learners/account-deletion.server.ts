import { emailLimits } from "~/accounts/email-rate-limit.server";
import { touch } from "~/core/transaction.server";
import { messages } from "~/accounts/messages";
import type { CurrentInstitute } from "~/core/institute";
import type { Db } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import { formatDay } from "~/core/dates";
import { escapeHtml, recipientTag, type Mailer, type MailMessage } from "~/mail/mailer.server";
import type { ResumeUploads } from "~/uploads/resumes.server";
import type { UploadStorage } from "~/uploads/storage.server";
import { accountDeletionSchema, deletionGraceDays, deletionMessages } from "./account-deletion";

export type DeletionOutcome =
  | { ok: true; cookies: string[]; eraseAfter: string }
  | { ok: false; status: 400 | 401 | 429; field: "password" | "confirmation" | ""; message: string };

/** What deleting an account needs of the sign-in machinery, and nothing more. */
export interface AccountSessions {
  /** The request's signed-in user's password: right, wrong, or too many tries lately. */
  checkPassword(request: Request, password: string): Promise<"right" | "wrong" | "too-many">;
  /** Ends every session of this user; answers the cookies that clear the request's own. */
  revokeSessions(request: Request, userId: string): Promise<string[]>;
}

interface DeletionDeps {
  db: Db;
  sessions: AccountSessions;
  mailer: Mailer;
  logger: Logger;
  /** The institute as stored at /staff/site, read when an email is written. */
  institute: CurrentInstitute;
  appUrl: string;
}

/**
 * "Delete my account": checks the password and the typed word, schedules the erasure, and signs
 * the account out everywhere (this session's cookies are cleared by the answer).
 */
export async function requestAccountDeletion(
  deps: DeletionDeps,
  request: Request,
  user: { id: string; email: string; username: string },
  input: { password: string; confirmation: string },
  now = new Date(),
): Promise<DeletionOutcome> {
  const checked = accountDeletionSchema.safeParse(input);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const field = issue.path[0] === "password" ? "password" : "confirmation";
    return { ok: false, status: 400, field, message: issue.message };
  }
  const password = await deps.sessions.checkPassword(request, input.password);
  if (password === "too-many") return { ok: false, status: 429, field: "", message: messages.tooManyAttempts };
  if (password === "wrong")
    return { ok: false, status: 400, field: "password", message: deletionMessages.wrongPassword };
  const eraseAfter = new Date(now.getTime() + deletionGraceDays * 86_400_000).toISOString();
  await deps.db.transaction().execute(async (trx) => {
    // Their own pages and staff's show it; nobody else's.
    await touch(trx, { people: [user.id] });
    await trx
      .insertInto("account_deletion")
      .values({ userId: user.id, requestedAt: now.toISOString(), eraseAfter })
      .onConflict((conflict) => conflict.column("userId").doUpdateSet({ requestedAt: now.toISOString(), eraseAfter }))
      .execute();
  });
  // This session's cookies go with the answer; every session of the account ends here.
  const cookies = await deps.sessions.revokeSessions(request, user.id);
  sendAccountMail(deps, user.email, (siteName) => deletionScheduledMessage(siteName, deps.appUrl, user, eraseAfter));
  return { ok: true, cookies, eraseAfter };
}

/** Signing in during the grace period keeps the account. */
export async function cancelAccountDeletion(
  deps: Pick<DeletionDeps, "db" | "mailer" | "logger" | "institute">,
  user: { id: string; email: string; username?: string | null; name: string },
): Promise<boolean> {
  const removed = await deps.db.transaction().execute(async (trx) => {
    await touch(trx, { people: [user.id] });
    return trx.deleteFrom("account_deletion").where("userId", "=", user.id).executeTakeFirst();
  });
  if (Number(removed.numDeletedRows) === 0) return false;
  const name = user.username || user.name;
  sendAccountMail(deps, user.email, (siteName) => ({
    to: user.email,
    subject: `Your ${siteName} account will not be deleted`,
    text: `Hello ${name},\n\nYou signed in, so your ${siteName} account stays as it is and will not be deleted.`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>You signed in, so your ${escapeHtml(siteName)} account stays as it is and will not be deleted.</p>`,
  }));
  return true;
}

/** Account mail: sent at once (it can't be turned off); a failure is logged, never the learner's problem. */
function sendAccountMail(
  deps: Pick<DeletionDeps, "mailer" | "logger" | "institute">,
  to: string,
  write: (siteName: string) => MailMessage,
): void {
  const send = async () => deps.mailer.send(write((await deps.institute()).name));
  send().catch((error: unknown) => {
    deps.logger.error({ err: error, recipient: recipientTag(to) }, "account email could not be sent");
  });
}

function deletionScheduledMessage(
  siteName: string,
  appUrl: string,
  user: { email: string; username: string },
  eraseAfter: string,
): MailMessage {
  const date = formatDay(eraseAfter, "UTC");
  const words = `Your ${siteName} account and everything in it will be deleted on ${date}. If you change your mind, sign in before then and it stays.`;
  return {
    to: user.email,
    subject: `Your ${siteName} account will be deleted on ${date}`,
    text: `Hello ${user.username},\n\n${words}\n\n${appUrl}/?auth=login`,
    html: `<p>Hello ${escapeHtml(user.username)},</p><p>${escapeHtml(words)}</p><p><a href="${escapeHtml(`${appUrl}/?auth=login`)}">Sign in</a></p>`,
  };
}

interface EraseDeps {
  db: Db;
  storage: UploadStorage;
  resumes: Pick<ResumeUploads, "discardFor">;
  logger: Logger;
}

/**
 * Erases the accounts whose grace period is over: the profile, sessions, messages, links,
 * uploads and files go; the audit log keeps its entries with the name replaced.
 */
export async function eraseDueAccounts(deps: EraseDeps, now = new Date()): Promise<number> {
  const due = await deps.db
    .selectFrom("account_deletion")
    .select("userId")
    .where("eraseAfter", "<=", now.toISOString())
    .limit(50)
    .execute();
  let erased = 0;
  for (const { userId } of due) {
    if (await eraseAccount(deps, userId, now)) erased++;
  }
  return erased;
}

async function eraseAccount(deps: EraseDeps, userId: string, now: Date): Promise<boolean> {
  const { db, storage, logger } = deps;
  const files = await db.transaction().execute(async (trx) => {
    // Staff's lists show it; the person has no session left to see anything.
    await touch(trx, { staff: true });
    // Taken by this instance: another that read the same row finds it gone.
    const claimed = await trx
      .deleteFrom("account_deletion")
      .where("userId", "=", userId)
      .where("eraseAfter", "<=", now.toISOString())
      .executeTakeFirst();
    if (Number(claimed.numDeletedRows) !== 1) return null;
    const user = await trx.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirst();
    if (!user) return [];
    const keys = [
      ...(await trx.selectFrom("resume").select("storageKey").where("learnerId", "=", userId).execute()),
      ...(await trx.selectFrom("profile_photo").select("storageKey").where("learnerId", "=", userId).execute()),
      ...(await trx.selectFrom("job_offer").select("storageKey").where("learnerId", "=", userId).execute()),
      ...(await trx.selectFrom("assignment_file").select("storageKey").where("learnerId", "=", userId).execute()),
    ].map((row) => row.storageKey);
    // Issued documents are kept, revoked: anyone checking one learns why it no longer holds.
    await trx
      .updateTable("document")
      .set({
        revokedAt: now.toISOString(),
        revokeReason: deletionMessages.documentRevoked,
        updatedAt: now.toISOString(),
      })
      .where("learnerId", "=", userId)
      .where("revokedAt", "is", null)
      .execute();
    await trx
      .updateTable("staff_audit")
      .set({ target: deletionMessages.deletedLearner, sentText: null })
      .where("targetId", "=", userId)
      .execute();
    // Reset links name the user by id; counters name the email.
    await trx.deleteFrom("verification").where("value", "=", userId).execute();
    for (const kind of Object.keys(emailLimits)) {
      const key = `${kind}:${user.email.trim().toLowerCase()}`;
      // The counter of the email, and those of the email from each address ("…:<ip>").
      await trx
        .deleteFrom("rate_limit")
        .where((w) => w.or([w("key", "=", key), w.and([w("key", ">", `${key}:`), w("key", "<", `${key};`)])]))
        .execute();
    }
    // Per-person counters end with the id ("password-check:<id>"); ids are letters, digits and dashes.
    if (/^[A-Za-z0-9-]+$/.test(userId))
      await trx.deleteFrom("rate_limit").where("key", "like", `%:${userId}`).execute();
    // The version kept pages are stamped with names the id.
    await trx.deleteFrom("change_version").where("key", "=", `person:${userId}`).execute();
    // Everything else goes with the user row (foreign keys cascade).
    await trx.deleteFrom("user").where("id", "=", userId).execute();
    return keys;
  });
  if (files === null) return false;
  await deps.resumes.discardFor(userId);
  for (const key of files) {
    await storage
      .delete(key)
      .catch((error: unknown) => logger.error({ err: error, key }, "erased account's file not deleted"));
  }
  logger.info({ userId }, "account erased");
  return true;
}
