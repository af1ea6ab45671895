import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { isAnonymousRequest, isCacheableQuery } from "~/http/anonymous-request";
import { addressFromProxyHeader } from "~/http/client-address";
import { isStreamedUpload, requestLimits, streamedUploads } from "~/http/request-limits.server";
import { assignmentUploadPath, photoUploadPath, resumeUploadPath } from "~/uploads/upload-paths";
import { pickEncoding } from "~/http/encoding.server";
import { AnonymousPageCache, inlineScriptHashes } from "~/http/page-cache.server";
import { contentSecurityPolicy } from "~/http/security-headers.server";

describe("content negotiation", () => {
  it.each([
    [undefined, "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["*", "gzip"],
    ["identity", "identity"],
  ])("Accept-Encoding %s gives %s", (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

describe("anonymous requests", () => {
  it("are those without a session cookie", () => {
    expect(isAnonymousRequest(undefined)).toBe(true);
    expect(isAnonymousRequest("theme=dark")).toBe(true);
    expect(isAnonymousRequest("theme=dark; better-auth.session_token=abc")).toBe(false);
    expect(isAnonymousRequest("__Secure-better-auth.session_token=abc")).toBe(false);
  });

  it("may carry campaign tags but nothing that changes the page", () => {
    expect(isCacheableQuery("")).toBe(true);
    expect(isCacheableQuery("utm_source=ads&utm_campaign=diwali&gclid=x")).toBe(true);
    expect(isCacheableQuery("auth=login")).toBe(false);
    expect(isCacheableQuery("utm_source=ads&auth=signup")).toBe(false);
    expect(isCacheableQuery("%E0%A4%A=1")).toBe(false);
  });
});

describe("CSP", () => {
  it("allows inline script only by nonce or by hash", () => {
    const withNonce = contentSecurityPolicy({ nonce: "abc" });
    expect(withNonce.match(/script-src ([^;]*)/)?.[1]).toBe("'self' 'nonce-abc'");
    expect(contentSecurityPolicy({ hashes: ["sha256-x"] }).match(/script-src ([^;]*)/)?.[1]).toBe("'self' 'sha256-x'");
    expect(withNonce).toContain("frame-ancestors 'none'");
  });

  it("hashes exactly the inline scripts of a page", () => {
    const html = `<script src="/a.js"></script><script>one()</script><script type="module">two()</script>`;
    const expected = ["one()", "two()"].map((s) => `sha256-${createHash("sha256").update(s).digest("base64")}`);
    expect(inlineScriptHashes(html)).toEqual(expected);
  });
});

describe("anonymous page cache", () => {
  const page = (body: string, init?: ResponseInit) => new Response(`<html><script>boot()</script>${body}</html>`, init);

  it("renders once, serves precompressed copies, and re-renders after invalidate", async () => {
    let renders = 0;
    const cache = new AnonymousPageCache(async () => page(`render ${++renders}`), new Set(["/"]));
    const [a, b] = await Promise.all([cache.get("/"), cache.get("/")]);
    expect(renders).toBe(1);
    expect(a).toBe(b);
    expect(zlib.gunzipSync(a!.bodies.gzip).toString()).toContain("render 1");
    expect(zlib.brotliDecompressSync(a!.bodies.br).toString()).toContain("render 1");
    expect(a!.csp).toContain(`'sha256-${createHash("sha256").update("boot()").digest("base64")}'`);
    expect(cache.peek("/")).toBe(a);

    cache.invalidate();
    expect(cache.peek("/")).toBeUndefined();
    const c = await cache.get("/");
    expect(renders).toBe(2);
    expect(c!.bodies.identity.toString()).toContain("render 2");
    expect(c!.etag).not.toBe(a!.etag);
  });

  it("keeps serving a dropped page while one render replaces it, and renders a page with a maximum age again once it is older", async () => {
    const renders: Record<string, number> = { "/": 0, "/outcomes": 0 };
    const cache = new AnonymousPageCache(
      async (path) => page(`${path} ${++renders[path]!}`),
      new Set(["/", "/outcomes"]),
      new Map([["/outcomes", 60_000]]),
      0,
    );
    const home = await cache.get("/");
    const outcomes = await cache.get("/outcomes");
    cache.drop("/outcomes");
    expect(cache.peek("/")).toBe(home);
    expect(cache.peek("/outcomes")).toBe(outcomes); // the old page, while its render runs
    await expect.poll(() => cache.peek("/outcomes")?.bodies.identity.toString()).toContain("/outcomes 2");
    expect(renders["/outcomes"]).toBe(2);

    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ["Date"] });
    try {
      expect(cache.peek("/")).toBe(home);
      // Older than its maximum age: served once more while it is rendered again.
      expect(cache.peek("/outcomes")?.bodies.identity.toString()).toContain("/outcomes 2");
    } finally {
      vi.useRealTimers();
    }
    await expect.poll(() => cache.peek("/outcomes")?.bodies.identity.toString()).toContain("/outcomes 3");
    expect(renders["/"]).toBe(1);
  });

  it("shares one render among every visitor after a drop, and renders once more for a drop during it", async () => {
    let renders = 0;
    let finish: (() => void) | undefined;
    const cache = new AnonymousPageCache(
      (path) =>
        new Promise<Response>((resolve) => {
          const n = ++renders;
          finish = () => resolve(page(`${path} ${n}`));
        }),
      new Set(["/outcomes"]),
      new Map(),
      0,
    );
    const first = cache.get("/outcomes");
    finish!();
    const old = await first;

    cache.drop("/outcomes");
    const seen = Array.from({ length: 50 }, () => cache.peek("/outcomes"));
    expect(renders).toBe(2);
    expect(new Set(seen)).toEqual(new Set([old]));

    // A drop while it renders: that render is kept (newer than the old page), another follows.
    cache.drop("/outcomes");
    finish!();
    await expect.poll(() => renders).toBe(3);
    expect(cache.peek("/outcomes")?.bodies.identity.toString()).toContain("/outcomes 2");
    finish!();
    await expect.poll(() => cache.peek("/outcomes")?.bodies.identity.toString()).toContain("/outcomes 3");
    for (let i = 0; i < 10; i++) cache.peek("/outcomes");
    expect(renders).toBe(3);
  });

  it("starts a path's renders at most once per interval however often it is dropped", async () => {
    let renders = 0;
    const cache = new AnonymousPageCache(
      async (path) => page(`${path} ${++renders}`),
      new Set(["/outcomes"]),
      new Map(),
      200,
    );
    await cache.get("/outcomes");
    const started = performance.now();
    while (performance.now() - started < 700) {
      cache.drop("/outcomes");
      cache.peek("/outcomes");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // 700 ms of drops every 10 ms: at most one render per 200 ms after the first.
    expect(renders).toBeGreaterThanOrEqual(3);
    expect(renders).toBeLessThanOrEqual(1 + Math.ceil(700 / 200));
    // The last drop is followed by a render that shows it.
    const last = renders;
    await expect.poll(() => renders).toBe(last + 1);
    await expect.poll(() => cache.peek("/outcomes")?.bodies.identity.toString()).toContain(`/outcomes ${last + 1}`);
  });

  it("after invalidate serves nothing old: the next page is rendered afresh", async () => {
    let renders = 0;
    let finish!: () => void;
    const slow = new AnonymousPageCache(
      (path) =>
        new Promise<Response>((resolve) => {
          const n = ++renders;
          finish = () => resolve(page(`${path} ${n}`));
        }),
      new Set(["/"]),
      new Map(),
      0,
    );
    const pending = slow.get("/");
    slow.invalidate(); // a render under way then may have read the old content: not kept
    finish();
    await pending;
    expect(slow.peek("/")).toBeUndefined();
    await expect.poll(() => renders).toBe(2);
    finish();
    await expect.poll(() => slow.peek("/")?.bodies.identity.toString()).toContain("/ 2");
  });

  it("never stores an error page or one that sets a cookie", async () => {
    const failing = new AnonymousPageCache(async () => page("oops", { status: 500 }), new Set(["/"]));
    expect(await failing.get("/")).toBeUndefined();
    const cookie = new AnonymousPageCache(async () => page("hi", { headers: { "set-cookie": "a=b" } }), new Set(["/"]));
    expect(await cookie.get("/")).toBeUndefined();
  });
});

describe("client address behind a proxy", () => {
  it("is the right-most entry with one proxy: what the client wrote further left is ignored", () => {
    expect(addressFromProxyHeader("203.0.113.9", 1)).toBe("203.0.113.9");
    expect(addressFromProxyHeader("6.6.6.6, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(addressFromProxyHeader("1.1.1.1,6.6.6.6 ,  203.0.113.9", 1)).toBe("203.0.113.9");
    expect(addressFromProxyHeader(["6.6.6.6", "203.0.113.9"], 1)).toBe("203.0.113.9");
  });

  it("is the N-th from the right with N proxies, or the left-most when fewer entries came", () => {
    expect(addressFromProxyHeader("6.6.6.6, 203.0.113.9, 10.0.0.2", 2)).toBe("203.0.113.9");
    expect(addressFromProxyHeader("203.0.113.9, 10.0.0.2", 3)).toBe("203.0.113.9");
  });

  it("accepts IPv6 and entries with ports, and nothing that is not an IP", () => {
    expect(addressFromProxyHeader("2001:db8::1", 1)).toBe("2001:db8::1");
    expect(addressFromProxyHeader("[2001:db8::1]:443", 1)).toBe("2001:db8::1");
    expect(addressFromProxyHeader("203.0.113.9:5123", 1)).toBe("203.0.113.9");
    expect(addressFromProxyHeader("1.2.3.4, unknown", 1)).toBeUndefined();
    expect(addressFromProxyHeader(" , ", 1)).toBeUndefined();
    expect(addressFromProxyHeader(undefined, 1)).toBeUndefined();
  });
});

describe("request body limits", () => {
  it("leave only the tus uploads, the profile photo, the import's CSV and the site editor's images to read their own bodies", () => {
    expect(streamedUploads.map((upload) => upload.path)).toEqual([
      resumeUploadPath,
      assignmentUploadPath,
      photoUploadPath,
      "/staff/import",
      "/staff/import.data",
      "/staff/site",
      "/staff/site.data",
    ]);
    expect(isStreamedUpload("PATCH", `${assignmentUploadPath}/abc123`)).toBe(true);
    expect(isStreamedUpload("POST", "/staff/site.data")).toBe(true);
    expect(isStreamedUpload("POST", "/staff/site/preview")).toBe(false);
    expect(isStreamedUpload("POST", "/staff/import.data")).toBe(true);
    expect(isStreamedUpload("GET", "/staff/import")).toBe(false);
    expect(isStreamedUpload("POST", "/staff/import/x")).toBe(false);
    expect(isStreamedUpload("POST", "/staff.data")).toBe(false);
    expect(isStreamedUpload("POST", resumeUploadPath)).toBe(true);
    expect(isStreamedUpload("PATCH", `${resumeUploadPath}/abc123`)).toBe(true);
    expect(isStreamedUpload("POST", "/api/learner/photo")).toBe(true);
    expect(isStreamedUpload("PUT", "/api/learner/photo")).toBe(false);
    expect(isStreamedUpload("POST", "/api/learner/photos")).toBe(false);
    expect(isStreamedUpload("POST", `${resumeUploadPath}-x`)).toBe(false);
    expect(isStreamedUpload("POST", "/api/auth/sign-up/email")).toBe(false);
    expect(isStreamedUpload("POST", "/api/staff/messages")).toBe(false);
  });

  it("cap bodies at 1 MiB, far above the largest legitimate one", () => {
    expect(requestLimits.maxBodyBytes).toBe(1024 * 1024);
    const largestStaffMessage = JSON.stringify({ body: "\u0939".repeat(20_000) });
    expect(Buffer.byteLength(largestStaffMessage)).toBeLessThan(requestLimits.maxBodyBytes / 10);
  });
});
