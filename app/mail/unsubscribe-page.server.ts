import type { Db } from "~/db/database.server";
import { emailKinds, kindsInWords, type EmailKind } from "./email-kinds";
import { readEmailPreferences, turnOffEmails } from "./email-preferences.server";
import { readUnsubscribeToken } from "./unsubscribe.server";

/** What the unsubscribe page shows. */
export type UnsubscribeView =
  | { status: "invalid" | "expired"; message: string }
  | {
      status: "valid";
      /** The address, partly hidden: the link may have been forwarded. */
      email: string;
      /** "tasks", "notices and tasks": what this link turns off. */
      about: string;
      /** Whether those kinds are off already. */
      alreadyOff: boolean;
      /** Whether every kind is off. */
      allOff: boolean;
      /** Set after a change: what happened. */
      done?: string;
    };

export const unsubscribeMessages = {
  invalid:
    "This link is not valid. Sign in and choose which emails you get under Email notifications on your Settings page.",
  expired:
    "This link has expired. Sign in and choose which emails you get under Email notifications on your Settings page.",
};

interface Deps {
  db: Db;
  unsubscribeKey: Buffer;
}

/** Reads the link; changes nothing (mail scanners open links). */
export async function unsubscribePage({ db, unsubscribeKey }: Deps, token: string): Promise<UnsubscribeView> {
  const link = readUnsubscribeToken(unsubscribeKey, token);
  if (link.status !== "valid") return { status: link.status, message: unsubscribeMessages[link.status] };
  const learner = await db.selectFrom("user").select("email").where("id", "=", link.learnerId).executeTakeFirst();
  if (!learner) return { status: "invalid", message: unsubscribeMessages.invalid };
  const preferences = await readEmailPreferences(db, link.learnerId);
  return {
    status: "valid",
    email: maskEmail(learner.email),
    about: kindsInWords(link.kinds),
    alreadyOff: link.kinds.every((kind) => preferences[kind] === "off"),
    allOff: emailKinds.every((kind) => preferences[kind] === "off"),
  };
}

/**
 * Turns off what the link is about (RFC 8058's one-click POST, or the page's first button), or
 * every kind ('Turn off all').
 */
export async function unsubscribe(deps: Deps, token: string, scope: "link" | "all"): Promise<UnsubscribeView> {
  const link = readUnsubscribeToken(deps.unsubscribeKey, token);
  if (link.status !== "valid") return { status: link.status, message: unsubscribeMessages[link.status] };
  const exists = await deps.db.selectFrom("user").select("id").where("id", "=", link.learnerId).executeTakeFirst();
  if (!exists) return { status: "invalid", message: unsubscribeMessages.invalid };
  const kinds: readonly EmailKind[] = scope === "all" ? emailKinds : link.kinds;
  await turnOffEmails(deps.db, link.learnerId, kinds);
  const view = await unsubscribePage(deps, token);
  if (view.status !== "valid") return view;
  return {
    ...view,
    done:
      scope === "all"
        ? "Done: we won't email you about notices, tasks, certificates or documents. Emails about your account still come."
        : `Done: we won't email you about ${kindsInWords(link.kinds)}.`,
  };
}

/** "a•••@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${email[0]}•••${email.slice(at)}`;
}
