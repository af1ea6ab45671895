import { describe, expect, it } from "vitest";
import { contrastWithWhite, ratioText } from "~/site/sections/contrast";
import { parsePolicy } from "~/site/sections/policy-text";
import { colourProblem } from "~/site/sections/section-types";
import { imageFormatOf } from "~/site/sections/site-images.server";

const values = { name: "Upskill", email: "hello@upskill.example", phone: "+91 98765 43210", address: "Pune" };

describe("the brand colour's contrast with white text", () => {
  it("matches WCAG's figures", () => {
    expect(contrastWithWhite("#000000")).toBeCloseTo(21, 5);
    expect(contrastWithWhite("#fff")).toBeCloseTo(1, 5);
    // #767676 is the lightest grey that passes AA on white.
    expect(contrastWithWhite("#767676")).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite("#777777")).toBeLessThan(4.5);
    expect(contrastWithWhite("red")).toBeNull();
  });

  it("refuses below 4.5:1 with the ratio, never rounding a failure up to a pass", () => {
    expect(colourProblem("#1e40af")).toBeNull();
    expect(colourProblem("#777777")).toBe(
      "White text on #777777 has a contrast of 4.4:1; it needs at least 4.5:1 (WCAG AA). Choose a darker colour.",
    );
    expect(ratioText(4.4999)).toBe("4.4:1");
  });
});

describe("the policy pages' markup", () => {
  it("reads headings, paragraphs, lists, bold and links, and fills in the brand", () => {
    const blocks = parsePolicy(
      "Hello {name}.\nSecond line.\n\n## Rules\n- **Within 7 days** of paying\n- Write to [{email}](mailto:{email})\n\n1. One\n2. Two\n\n{stored-data-table}",
      values,
    );
    expect(blocks).toEqual([
      { kind: "p", children: [{ kind: "text", text: "Hello Upskill. Second line." }] },
      { kind: "h2", children: [{ kind: "text", text: "Rules" }] },
      {
        kind: "ul",
        items: [
          [
            { kind: "strong", children: [{ kind: "text", text: "Within 7 days" }] },
            { kind: "text", text: " of paying" },
          ],
          [
            { kind: "text", text: "Write to " },
            {
              kind: "link",
              href: "mailto:hello@upskill.example",
              children: [{ kind: "text", text: "hello@upskill.example" }],
            },
          ],
        ],
      },
      { kind: "ol", items: [[{ kind: "text", text: "One" }], [{ kind: "text", text: "Two" }]] },
      { kind: "stored-data-table" },
    ]);
  });

  it("keeps HTML and unsafe links as plain text", () => {
    const blocks = parsePolicy(
      '<script>alert(1)</script> [click](javascript:alert(1)) <img src=x onerror="y">',
      values,
    );
    expect(blocks).toEqual([
      {
        kind: "p",
        children: [
          { kind: "text", text: "<script>alert(1)</script> " },
          { kind: "text", text: "[click](javascript:alert(1)" },
          { kind: "text", text: ') <img src=x onerror="y">' },
        ],
      },
    ]);
  });
});

describe("image kinds by their first bytes", () => {
  it("knows PNG, JPEG and WebP, and nothing else", () => {
    expect(imageFormatOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(imageFormatOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(imageFormatOf(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("webp");
    expect(imageFormatOf(new TextEncoder().encode("<svg xmlns="))).toBeNull();
    expect(imageFormatOf(new TextEncoder().encode("GIF89a"))).toBeNull();
  });
});
