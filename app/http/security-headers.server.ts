import { randomFillSync } from "node:crypto";

const nonceBytes = 16;
const noncePool = Buffer.alloc(nonceBytes * 256);
let noncePoolOffset = noncePool.length;

/** 128 random bits, base64; drawn from a pool refilled 256 nonces at a time (one call each cost more). */
export function newNonce(): string {
  if (noncePoolOffset === noncePool.length) {
    randomFillSync(noncePool);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolOffset, noncePoolOffset + nonceBytes);
  noncePoolOffset += nonceBytes;
  return nonce;
}

/**
 * The Content-Security-Policy. Inline script runs only with this request's nonce or, for the
 * shared anonymous-page cache, when its hash is listed; styles may be inline because React
 * server-renders style attributes.
 */
export function contentSecurityPolicy(scriptSources: {
  nonce?: string;
  hashes?: readonly string[];
  /** Development: Vite's HMR socket. */
  devSocket?: boolean;
}): string {
  const script = ["'self'"];
  if (scriptSources.nonce) script.push(`'nonce-${scriptSources.nonce}'`);
  for (const hash of scriptSources.hashes ?? []) script.push(`'${hash}'`);
  return [
    "default-src 'self'",
    `script-src ${script.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    scriptSources.devSocket ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers every response carries, whatever produced it. */
export function baseSecurityHeaders(https: boolean): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    ...(https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
