import { createHash, randomBytes } from "node:crypto";
import { ByteCappedCache } from "./byte-capped-cache";

/**
 * Pages rendered for signed-in people, kept by what decides their HTML: the address and the
 * loader data exactly as the browser receives it. A page whose data has not changed since it
 * was last rendered is not rendered again. The data is still read on every request (so a
 * change or a sign-out on any instance shows at once); only React's render, the largest part
 * of a page's time, is skipped. Kept with a placeholder where the request's CSP nonce goes.
 */
export class RenderedPages {
  /** Stands where each response's own nonce goes; random per process, so no content holds it. */
  readonly nonceSlot = randomBytes(18).toString("hex");
  private readonly pages: ByteCappedCache<string>;

  constructor(maxBytes: number) {
    this.pages = new ByteCappedCache(maxBytes, sizeOf);
  }

  /** A key that two different pages can't share (SHA-256 over everything the HTML depends on). */
  key(parts: (string | Uint8Array)[]): string {
    const hash = createHash("sha256");
    for (const part of parts) hash.update(part).update("\u0000");
    return hash.digest("base64");
  }

  /** The page's HTML with this nonce in place, or undefined. */
  get(key: string, nonce: string): string | undefined {
    const html = this.pages.get(key);
    return html === undefined ? undefined : this.withNonce(html, nonce);
  }

  /** A page rendered with nonceSlot, with this nonce in its place. */
  withNonce(html: string, nonce: string): string {
    return html.replaceAll(this.nonceSlot, nonce);
  }

  set(key: string, html: string): void {
    this.pages.set(key, html);
  }

  get size(): number {
    return this.pages.size;
  }
}

/** Bytes a string takes in memory (UTF-16). */
const sizeOf = (text: string) => text.length * 2;
