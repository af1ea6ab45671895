import { createHmac, timingSafeEqual } from "node:crypto";
import { emailKinds, type EmailKind } from "./email-kinds";

/**
 * Unsubscribe links: they work without signing in, so they carry who and what, signed with a
 * key derived from the auth secret, and expire. A link turns off only the kinds its email was
 * about.
 */

/** How long a link in an email keeps working. */
export const unsubscribeLinkDays = 90;

/** The longest token accepted, checked before anything else looks at it. */
const maxTokenLength = 400;

export function unsubscribeKey(authSecret: string): Buffer {
  return createHmac("sha256", authSecret).update("upskill unsubscribe links").digest();
}

const signature = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url");

export function unsubscribeToken(
  key: Buffer,
  learnerId: string,
  kinds: readonly EmailKind[],
  now = new Date(),
): string {
  const expires = Math.floor(now.getTime() / 1000) + unsubscribeLinkDays * 86_400;
  const payload = Buffer.from(JSON.stringify({ u: learnerId, k: kinds, e: expires })).toString("base64url");
  return `${payload}.${signature(key, payload)}`;
}

export function unsubscribeUrl(appUrl: string, token: string): string {
  return `${appUrl}/unsubscribe?token=${token}`;
}

export type UnsubscribeLink =
  | { status: "valid"; learnerId: string; kinds: EmailKind[] }
  | { status: "expired"; learnerId: string }
  | { status: "invalid" };

export function readUnsubscribeToken(key: Buffer, token: string, now = new Date()): UnsubscribeLink {
  if (token.length === 0 || token.length > maxTokenLength) return { status: "invalid" };
  const [payload, signed, extra] = token.split(".");
  if (!payload || !signed || extra !== undefined) return { status: "invalid" };
  const expected = Buffer.from(signature(key, payload));
  const given = Buffer.from(signed);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { status: "invalid" };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { status: "invalid" };
  }
  const { u, k, e } = (claims ?? {}) as { u?: unknown; k?: unknown; e?: unknown };
  if (typeof u !== "string" || typeof e !== "number" || !Array.isArray(k)) return { status: "invalid" };
  const kinds = k.filter((kind): kind is EmailKind => emailKinds.includes(kind as EmailKind));
  if (kinds.length === 0 || kinds.length !== k.length) return { status: "invalid" };
  if (e * 1000 <= now.getTime()) return { status: "expired", learnerId: u };
  return { status: "valid", learnerId: u, kinds };
}
