import { describe, expect, test } from "vitest";
import { RenderedPages } from "~/http/rendered-pages.server";

describe("RenderedPages", () => {
  test("gives a page back with the request's nonce in every slot", () => {
    const pages = new RenderedPages(1024 * 1024);
    const key = pages.key(["http://x/dashboard", new TextEncoder().encode("[data]")]);
    pages.set(key, `<script nonce="${pages.nonceSlot}"></script><link nonce="${pages.nonceSlot}">`);
    expect(pages.get(key, "abc")).toBe(`<script nonce="abc"></script><link nonce="abc">`);
    expect(pages.get(key, "def")).toBe(`<script nonce="def"></script><link nonce="def">`);
  });

  test("a different address or different data is a different key", () => {
    const pages = new RenderedPages(1024 * 1024);
    const data = (text: string) => new TextEncoder().encode(text);
    const keys = new Set([
      pages.key(["http://x/dashboard", data('["a"]')]),
      pages.key(["http://x/dashboard", data('["b"]')]),
      pages.key(["http://x/dashboard?show=tasks", data('["a"]')]),
      pages.key(["http://x/dashboard", data('["a"'), data("]")]),
    ]);
    expect(keys.size).toBe(4);
    expect(pages.key(["http://x/dashboard", data('["a"]')])).toBe(pages.key(["http://x/dashboard", data('["a"]')]));
  });

  test("keeps within its size, dropping the least recently used first", () => {
    const pages = new RenderedPages(50_000);
    const page = "x".repeat(3_000); // 6 KB as UTF-16: eight fit
    const names = ["a", "b", "c", "d", "e", "f", "g", "h"];
    for (const name of names) pages.set(name, page);
    expect(pages.size).toBe(8);
    pages.get("a", "n"); // now the most recent
    pages.set("i", page);
    expect(pages.size).toBe(8);
    expect(pages.get("b", "n")).toBeUndefined();
    expect(pages.get("a", "n")).toBe(page);
    // A page larger than an eighth of the whole is not kept at all.
    pages.set("big", "x".repeat(3_200));
    expect(pages.get("big", "n")).toBeUndefined();
  });
});
