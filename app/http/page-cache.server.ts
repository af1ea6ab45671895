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

/** What the cache knows of one path: its page, whether that is out of date, its rebuild. */
interface PathState {
  page?: CachedPage;
  /** The records the page shows changed since its render began: another render follows. */
  stale: boolean;
  /** Counts drop()s, so a render knows whether its records changed while it ran. */
  changes: number;
  /** The render under way: at most one per path (single flight). */
  building?: Promise<CachedPage | undefined>;
  /** A render waiting for its turn (at most one per path per minRebuildIntervalMs). */
  scheduled?: NodeJS.Timeout;
  /** Those who asked for a page while the render waited for its turn. */
  waiting?: PromiseWithResolvers<CachedPage | undefined>;
  /** performance.now() when its last render began. */
  lastStart: number;
}

/**
 * The public pages as an anonymous visitor sees them, rendered once and kept precompressed.
 *
 * - invalidate() (content or configuration changed): every page goes; the next request for one
 *   is rendered afresh, so an admin's save shows on the next reload.
 * - drop(path) (records a page reads changed, perhaps by any learner, perhaps every second): the
 *   page stays and is served while one shared render replaces it (stale while rebuilding), and
 *   renders of a path start at most once per minRebuildIntervalMs however often it is dropped.
 *   A drop during a render keeps that render (it is no older than the page it replaces) and
 *   marks it out of date, so one more render follows.
 * - A page older than its maximum age, or from last year (its copyright line), is served while
 *   it is rendered again.
 */
export class AnonymousPageCache {
  private readonly states = new Map<string, PathState>();
  private generation = 0;

  constructor(
    private readonly render: AnonymousRenderer,
    readonly paths: ReadonlySet<string>,
    private readonly maxAgeMs: ReadonlyMap<string, number> = new Map(),
    private readonly minRebuildIntervalMs = 1000,
  ) {}

  private state(path: string): PathState {
    let state = this.states.get(path);
    if (!state) this.states.set(path, (state = { stale: false, changes: 0, lastStart: -Infinity }));
    return state;
  }

  private isFresh(path: string, state: PathState): boolean {
    const { page } = state;
    if (!page || state.stale || page.year !== new Date().getFullYear()) return false;
    const maxAge = this.maxAgeMs.get(path);
    return maxAge === undefined || Date.now() - page.builtAt < maxAge;
  }

  has(path: string): boolean {
    return this.paths.has(path);
  }

  /**
   * The page to serve now: the cached one, even out of date (a render then replaces it), or
   * undefined when there is none yet (a render is started; the caller renders on its own).
   */
  peek(path: string): CachedPage | undefined {
    const state = this.state(path);
    if (!this.isFresh(path, state)) this.refresh(path, state);
    return state.page;
  }

  /** A page rendered from the records as they are now, or the cached one when it is current. */
  async get(path: string): Promise<CachedPage | undefined> {
    const state = this.state(path);
    if (this.isFresh(path, state)) return state.page;
    this.refresh(path, state);
    if (state.building) return state.building;
    state.waiting ??= Promise.withResolvers();
    return state.waiting.promise;
  }

  invalidate(): void {
    this.generation++;
    for (const state of this.states.values()) state.page = undefined;
  }

  /** One page's records changed: it is rendered again, and served as it was until then. */
  drop(path: string): void {
    const state = this.state(path);
    state.changes++;
    state.stale = true;
    this.refresh(path, state);
  }

  /** Renders every page now, so the first visitor after a start or change gets a hit. */
  async warm(): Promise<void> {
    await Promise.all([...this.paths].map((path) => this.get(path)));
  }

  /** Starts the one render of a path, or schedules it for its turn; nothing if one is coming. */
  private refresh(path: string, state: PathState): void {
    if (state.building || state.scheduled) return;
    const wait = state.lastStart + this.minRebuildIntervalMs - performance.now();
    if (wait <= 0) return this.startBuild(path, state);
    state.scheduled = setTimeout(() => {
      state.scheduled = undefined;
      this.startBuild(path, state);
    }, wait);
    state.scheduled.unref();
  }

  private startBuild(path: string, state: PathState): void {
    const generation = this.generation;
    const changes = state.changes;
    state.lastStart = performance.now();
    const building = this.build(path)
      .then((built) => {
        if (built && generation === this.generation) {
          state.page = built;
          state.stale = changes !== state.changes;
        }
        return built;
      })
      .finally(() => {
        state.building = undefined;
        // Changed while it ran: one more render, in its turn. A failed render is tried again
        // when the page is next asked for.
        if (changes !== state.changes || generation !== this.generation) this.refresh(path, state);
      });
    // Visitors served the old page never wait for this render; a failure is get()'s to report.
    building.catch(() => {});
    state.building = building;
    state.waiting?.resolve(building);
    state.waiting = undefined;
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
