import { createHmac, timingSafeEqual } from "node:crypto";
import type { Auth } from "./auth.server";

/**
 * Reads better-auth's signed session cookie without going through its endpoint machinery:
 * the same name, secret and signature (HMAC-SHA256, base64), checked synchronously. Asking
 * better-auth for the session cost about 1 ms of CPU per request, most of a signed-in page's
 * own work; this costs microseconds, and the session row is still read on every request, so a
 * sign-out or revocation on any instance ends the session at once.
 */
export interface SessionCookieReader {
  /** The session token of a validly signed cookie in this Cookie header, or null. */
  token(cookieHeader: string): string | null;
  /**
   * better-auth extends a session when this little of its lifetime is left; such a request is
   * handed to better-auth so that it does (ms).
   */
  refreshWhenLeftMs: number;
}

export async function createSessionCookieReader(auth: Auth): Promise<SessionCookieReader> {
  const context = await auth.$context;
  const name = context.authCookies.sessionToken.name;
  const key = Buffer.from(context.secret);
  const { expiresIn, updateAge } = context.sessionConfig;
  // A signature that checked out once always does: the HMAC is skipped for cookies seen before.
  // Only good ones are kept, so what a client makes up can't fill this.
  const verified = new Map<string, string>();
  return {
    refreshWhenLeftMs: (expiresIn - updateAge) * 1000,
    token(cookieHeader) {
      const raw = cookieValue(cookieHeader, name);
      if (raw === null) return null;
      const known = verified.get(raw);
      if (known !== undefined) return known;
      const token = verify(raw);
      if (token !== null) {
        if (verified.size >= maxVerifiedCookies) verified.delete(verified.keys().next().value!);
        verified.set(raw, token);
      }
      return token;
    },
  };

  function verify(raw: string): string | null {
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const dot = value.lastIndexOf(".");
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const signature = value.slice(dot + 1);
    if (signature.length !== 44 || !signature.endsWith("=")) return null;
    const expected = createHmac("sha256", key).update(token).digest();
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
  }
}

const maxVerifiedCookies = 10_000;

/** The first value of a cookie in a Cookie header (quotes removed), or null. */
function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return null;
}
