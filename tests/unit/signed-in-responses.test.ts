import { execFileSync } from "node:child_process";
import zlib from "node:zlib";
import { describe, expect, test } from "vitest";
import { clockMinute, SignedInResponses } from "~/http/signed-in-responses.server";

const answer = (body: string, nonce: string, validUntil = Date.now() + 60_000) => ({
  status: 200,
  headers: { "content-type": "text/html; charset=utf-8" },
  body: Buffer.from(body),
  nonce,
  validUntil,
});

describe("SignedInResponses", () => {
  test("gives an answer back with each request's own nonce wherever the first one stood", () => {
    const responses = new SignedInResponses(1024 * 1024);
    const key = responses.key("token", "/dashboard", "3:1", Date.now());
    responses.set(key, answer(`<script nonce="N0NCE"></script><p>Asha</p><link nonce="N0NCE">`, "N0NCE"));
    const entry = responses.get(key, Date.now())!;
    expect(Buffer.concat(responses.body(entry, "abc", "identity")).toString()).toBe(
      `<script nonce="abc"></script><p>Asha</p><link nonce="abc">`,
    );
    expect(zlib.gunzipSync(Buffer.concat(responses.body(entry, "def", "gzip"))).toString()).toBe(
      `<script nonce="def"></script><p>Asha</p><link nonce="def">`,
    );
  });

  test("a page with a nonce goes in gzip joined from parts compressed once, that decoders read whole", () => {
    const responses = new SignedInResponses(1024 * 1024);
    // Large and varied enough that each part takes several deflate blocks.
    const page = Array.from({ length: 3000 }, (_, i) => `<li>Learner ${i * 7919} · ${(i * 104729) % 9973}</li>`);
    const html = `<script nonce="N0NCE"></script><ul>${page.join("")}</ul><style nonce="N0NCE"></style><p>end</p>`;
    responses.set("k", answer(html, "N0NCE"));
    const entry = responses.get("k", Date.now())!;
    expect(responses.encodingFor(entry, "gzip, deflate, br, zstd")).toBe("gzip");
    expect(responses.encodingFor(entry, "br")).toBe("identity");
    for (const nonce of ["first-nonce", "second-nonce-longer"]) {
      const body = Buffer.concat(responses.body(entry, nonce, "gzip"));
      const expected = html.replaceAll("N0NCE", nonce);
      // Node's own decoder checks the stream, the checksum and the length.
      expect(zlib.gunzipSync(body).toString()).toBe(expected);
      expect(body.length).toBeLessThan(expected.length / 3);
    }
    // An answer without a nonce keeps the client's best encoding.
    responses.set("d", answer(`{"learner":"Asha"}`, "N0NCE-absent"));
    expect(responses.encodingFor(responses.get("d", Date.now())!, "gzip, br")).toBe("br");
  });

  test("a page with its nonce in every preload tag goes in gzip that an outside decoder reads whole", () => {
    const responses = new SignedInResponses(1024 * 1024);
    // As the dashboard is: dozens of short parts between the nonces, then the page itself.
    const preloads = Array.from(
      { length: 40 },
      (_, i) => `<link rel="modulepreload" href="/assets/chunk-${i}.js" nonce="N0NCE"/>`,
    ).join("");
    const rows = Array.from({ length: 400 }, (_, i) => `<li>Task ${i}: due ${(i * 7) % 28} December</li>`).join("");
    const html = `<head>${preloads}</head><body><ul>${rows}</ul><script nonce="N0NCE">start()</script></body>`;
    responses.set("page", answer(html, "N0NCE"));
    const entry = responses.get("page", Date.now())!;
    const nonce = "a-nonce-of-this-answer";
    const body = Buffer.concat(responses.body(entry, nonce, "gzip"));
    const expected = html.replaceAll("N0NCE", nonce);
    const decoded = execFileSync(
      "python3",
      ["-c", "import gzip, sys; sys.stdout.buffer.write(gzip.decompress(sys.stdin.buffer.read()))"],
      { input: body },
    );
    expect(decoded.toString()).toBe(expected);
    expect(body.length).toBeLessThan(expected.length / 2);
    // The short parts go out joined with the nonce: a few pieces to write, not one per part.
    const pieces = responses.body(entry, nonce, "identity");
    expect(Buffer.concat(pieces).toString()).toBe(expected);
    expect(pieces.length).toBeLessThanOrEqual(5);
    expect(responses.body(entry, nonce, "gzip").length).toBeLessThanOrEqual(8);

    // Short parts that together pass a stored block's 65,535 bytes go in several.
    const long = Array.from({ length: 100 }, (_, i) => `<p nonce="N0NCE">${String(i).repeat(900)}</p>`).join("");
    const roomy = new SignedInResponses(8 * 1024 * 1024);
    roomy.set("long", answer(long, "N0NCE"));
    const longBody = Buffer.concat(roomy.body(roomy.get("long", Date.now())!, nonce, "gzip"));
    expect(zlib.gunzipSync(longBody).toString()).toBe(long.replaceAll("N0NCE", nonce));
  });

  test("the session, the address, the stamp and the minute each make another key", () => {
    const responses = new SignedInResponses(1024 * 1024);
    const now = Date.UTC(2026, 10, 24, 10, 0, 30);
    const keys = new Set([
      responses.key("token", "/dashboard", "3:1", now),
      responses.key("other", "/dashboard", "3:1", now),
      responses.key("token", "/dashboard?show=tasks", "3:1", now),
      responses.key("token", "/dashboard", "4:1", now),
      responses.key("token", "/dashboard", "3:1", now + 60_000),
    ]);
    expect(keys.size).toBe(5);
  });

  test("a session's answers are kept a minute at a time, each session's minute turning at a second of its own", () => {
    const responses = new SignedInResponses(1024 * 1024);
    const start = Date.UTC(2026, 10, 24, 10, 0, 0);
    /** The seconds, over three minutes, at which this session's key changed. */
    const turns = (token: string) => {
      const seconds: number[] = [];
      let last = responses.key(token, "/dashboard", "3:1", start);
      for (let second = 1; second <= 180; second++) {
        const key = responses.key(token, "/dashboard", "3:1", start + second * 1000);
        if (key !== last) seconds.push(second);
        last = key;
      }
      return seconds;
    };
    const tokens = ["token-asha", "token-ravi", "token-meera", "token-anil", "token-priya"];
    for (const token of tokens) {
      const seconds = turns(token);
      expect(seconds).toHaveLength(3);
      expect(seconds[1]! - seconds[0]!).toBe(60);
      expect(seconds[2]! - seconds[1]!).toBe(60);
    }
    expect(new Set(tokens.map((token) => turns(token)[0]! % 60)).size).toBeGreaterThan(1);
    expect(clockMinute("token-asha", start + 59_999) - clockMinute("token-asha", start)).toBeLessThanOrEqual(1);
  });

  test("an answer past its session's reuse is gone", () => {
    const responses = new SignedInResponses(1024 * 1024);
    const now = Date.now();
    responses.set("k", answer("<p>x</p>", "N", now + 1_000));
    expect(responses.get("k", now)).toBeDefined();
    expect(responses.get("k", now + 1_000)).toBeUndefined();
    expect(responses.size).toBe(0);
  });

  test("keeps within its size, dropping the least recently used first", () => {
    const responses = new SignedInResponses(60_000);
    const body = "x".repeat(6_000); // with its bookkeeping, nine fit
    for (const name of ["a", "b", "c", "d", "e", "f", "g", "h", "i"]) responses.set(name, answer(body, "N"));
    expect(responses.size).toBe(9);
    responses.get("a", Date.now());
    responses.set("j", answer(body, "N"));
    expect(responses.get("a", Date.now())).toBeDefined();
    expect(responses.get("b", Date.now())).toBeUndefined();
    expect(responses.get("j", Date.now())).toBeDefined();
  });
});
