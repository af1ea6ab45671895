import { createHash, randomBytes } from "node:crypto";

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
  private readonly pages = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** A key that two different pages can't share (SHA-256 over everything the HTML depends on). */
  key(parts: (string | Uint8Array)[]): string {
    const hash = createHash("sha256");
    for (const part of parts) hash.update(part).update("\u0000");
    return hash.digest("base64");
  }

  /** The page's HTML with this nonce in place, or undefined. */
  get(key: string, nonce: string): string | undefined {
    const html = this.pages.get(key);
    if (html === undefined) return undefined;
    // Most recently used last: the oldest go first when space runs out.
    this.pages.delete(key);
    this.pages.set(key, html);
    return this.withNonce(html, nonce);
  }

  /** A page rendered with nonceSlot, with this nonce in its place. */
  withNonce(html: string, nonce: string): string {
    return html.replaceAll(this.nonceSlot, nonce);
  }

  set(key: string, html: string): void {
    if (sizeOf(html) > this.maxBytes / 8) return;
    const previous = this.pages.get(key);
    if (previous !== undefined) {
      this.pages.delete(key);
      this.bytes -= sizeOf(previous);
    }
    this.pages.set(key, html);
    this.bytes += sizeOf(html);
    for (const [oldKey, oldHtml] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(oldKey);
      this.bytes -= sizeOf(oldHtml);
    }
  }

  get size(): number {
    return this.pages.size;
  }
}

/** Bytes a string takes in memory (UTF-16). */
const sizeOf = (text: string) => text.length * 2;
