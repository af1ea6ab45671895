import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Encoding } from "./encoding.server";
import { contentSecurityPolicy } from "./security-headers.server";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export interface CachedPage {
  etag: string;
  csp: string;
  year: number;
  /** Date.now() when it was rendered. */
  builtAt: number;
  bodies: Record<Encoding, Buffer>;
}

/** Renders a public page as an anonymous visitor sees it (no cookies, no nonce). */
export type AnonymousRenderer = (path: string) => Promise<Response>;

const inlineScript = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The CSP hash source of each inline script in a document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(inlineScript)) {
    hashes.add(
      `sha256-${createHash("sha256")
        .update(match[1] ?? "")
        .digest("base64")}`,
    );
  }
  return [...hashes];
}

/**
 * The public pages as an anonymous visitor sees them, rendered once and kept precompressed.
 * A page is rebuilt after invalidate() (content or configuration changed) and when the
 * year in its copyright line turns over, or one path's after drop(path) and once it is older than
 * its maximum age (pages read from records that change). Concurrent misses share one render.
 */
export class AnonymousPageCache {
  private readonly pages = new Map<string, CachedPage>();
  private readonly pending = new Map<string, Promise<CachedPage | undefined>>();
  private generation = 0;
  private readonly pathGenerations = new Map<string, number>();

  constructor(
    private readonly render: AnonymousRenderer,
    readonly paths: ReadonlySet<string>,
    private readonly maxAgeMs: ReadonlyMap<string, number> = new Map(),
  ) {}

  private current(path: string): CachedPage | undefined {
    const page = this.pages.get(path);
    if (!page || page.year !== new Date().getFullYear()) return undefined;
    const maxAge = this.maxAgeMs.get(path);
    return maxAge === undefined || Date.now() - page.builtAt < maxAge ? page : undefined;
  }

  has(path: string): boolean {
    return this.paths.has(path);
  }

  /** The cached page when it is current; otherwise undefined (and a rebuild is started). */
  peek(path: string): CachedPage | undefined {
    const page = this.current(path);
    if (page) return page;
    void this.get(path);
    return undefined;
  }

  async get(path: string): Promise<CachedPage | undefined> {
    const page = this.current(path);
    if (page) return page;
    let pending = this.pending.get(path);
    if (!pending) {
      const generation = this.generation;
      const pathGeneration = this.pathGenerations.get(path) ?? 0;
      pending = this.build(path)
        .then((built) => {
          const current = generation === this.generation && pathGeneration === (this.pathGenerations.get(path) ?? 0);
          if (built && current) this.pages.set(path, built);
          return built;
        })
        .finally(() => this.pending.delete(path));
      this.pending.set(path, pending);
    }
    return pending;
  }

  invalidate(): void {
    this.generation++;
    this.pages.clear();
  }

  /** One page's records changed: it is rendered again (a render under way is not kept). */
  drop(path: string): void {
    this.pathGenerations.set(path, (this.pathGenerations.get(path) ?? 0) + 1);
    this.pages.delete(path);
  }

  /** Renders every page now, so the first visitor after a start or change gets a hit. */
  async warm(): Promise<void> {
    await Promise.all([...this.paths].map((path) => this.get(path)));
  }

  private async build(path: string): Promise<CachedPage | undefined> {
    const year = new Date().getFullYear();
    const response = await this.render(path);
    // Only a plain successful page that sets nothing for the visitor may be shared.
    if (response.status !== 200 || response.headers.has("set-cookie")) {
      await response.body?.cancel();
      return undefined;
    }
    const html = await response.text();
    const identity = Buffer.from(html);
    const [gz, br] = await Promise.all([
      gzip(identity, { level: 9 }),
      brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    ]);
    return {
      etag: `"p-${createHash("sha256").update(identity).digest("base64url").slice(0, 20)}"`,
      csp: contentSecurityPolicy({ hashes: inlineScriptHashes(html) }),
      year,
      builtAt: Date.now(),
      bodies: { identity, gzip: gz, br },
    };
  }
}
