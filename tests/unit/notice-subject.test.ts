import { describe, expect, it } from "vitest";
import { noticeSubject } from "~/messages/message-mail.server";

describe("a notice email's subject", () => {
  it("is the notice's words when they fit in 60 characters", () => {
    expect(noticeSubject("Classes resume on Monday.")).toBe("Notice: Classes resume on Monday.");
    // Lines and runs of spaces become one space.
    expect(noticeSubject("  Holiday\n\non   Monday.\n")).toBe("Notice: Holiday on Monday.");
    const sixty = `Notice: ${"x".repeat(52)}`;
    expect(noticeSubject("x".repeat(52))).toBe(sixty);
  });

  it("is cut at the last whole word within 60 characters, without its trailing punctuation", () => {
    const subject = noticeSubject("Classes resume on Monday after the Diwali break; bring your laptops and chargers.");
    expect(subject).toBe("Notice: Classes resume on Monday after the Diwali break…");
    expect(subject!.length).toBe(56);
    expect(noticeSubject(`${"x".repeat(52)} y`)).toBe(`Notice: ${"x".repeat(51)}…`);
  });

  it("cuts a word longer than the room, and never inside a character", () => {
    expect(noticeSubject("a".repeat(70))).toBe(`Notice: ${"a".repeat(51)}…`);
    const party = noticeSubject("🎉".repeat(70))!;
    expect(Array.from(party)).toHaveLength(60);
    expect(party).toBe(`Notice: ${"🎉".repeat(51)}…`);
  });

  it("is none for a notice without words", () => {
    expect(noticeSubject(" \n ")).toBeNull();
  });
});
