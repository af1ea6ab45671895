import { describe, expect, it } from "vitest";
import { prepareMessageBody } from "~/messages/messages.server";

const stored = (typed: string) => {
  const prepared = prepareMessageBody(typed);
  if ("refused" in prepared) throw new Error(`refused: ${prepared.refused}`);
  return prepared.body;
};

describe("what staff type becomes the HTML learners see", () => {
  it("makes a blank line a new paragraph and a single line break a line break", () => {
    expect(stored("Dear learners,\nclass moves to 4 pm.\n\nBring your laptop.")).toBe(
      "<p>Dear learners,<br />class moves to 4 pm.</p>\n<p>Bring your laptop.</p>",
    );
  });

  it("reads Windows line ends and several blank lines as one paragraph break", () => {
    expect(stored("One\r\nTwo\r\n\r\n\r\n  \r\nThree\r\n")).toBe("<p>One<br />Two</p>\n<p>Three</p>");
  });

  it("leaves HTML that is laid out as blocks as it was written", () => {
    expect(stored("<ul>\n<li>HTML</li>\n<li>CSS</li>\n</ul>")).toBe("<ul>\n<li>HTML</li>\n<li>CSS</li>\n</ul>");
    expect(stored("<p>Already a paragraph</p>")).toBe("<p>Already a paragraph</p>");
  });

  it("keeps inline formatting inside a typed paragraph", () => {
    expect(stored("Submit by <b>Friday</b>\nat noon")).toBe("<p>Submit by <b>Friday</b><br />at noon</p>");
  });

  it("changes nothing when applied to its own output", () => {
    const once = stored("a\nb\n\nc <i>d</i>\n\n<ol><li>e</li></ol>");
    expect(stored(once)).toBe(once);
  });

  it("still sanitizes HTML typed among the lines", () => {
    expect(stored('Hello\n<img src=x onerror="alert(1)">\n\n<script>alert(1)</script>World')).toBe(
      "<p>Hello<br /></p>\n<p>World</p>",
    );
  });

  it("refuses text that is only blank lines", () => {
    expect(prepareMessageBody("\n\n  \n")).toEqual({ refused: "empty" });
  });

  it("refuses more lines or tags than the sanitizer is given, before it runs", () => {
    expect(prepareMessageBody("a\n".repeat(1_999))).not.toHaveProperty("refused");
    expect(prepareMessageBody("a\n".repeat(2_000))).toEqual({ refused: "too-many-parts" });
    expect(prepareMessageBody("<b>x".repeat(2_000))).not.toHaveProperty("refused");
    expect(prepareMessageBody("<".repeat(2_001))).toEqual({ refused: "too-many-parts" });
    const started = performance.now();
    prepareMessageBody("<".repeat(100_000));
    expect(performance.now() - started).toBeLessThan(50);
  });
});
