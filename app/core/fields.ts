import { z } from "zod";
import { controlCharacterMessage, hasControlCharacters, hasLineBreakOrTab, singleLineMessage } from "./text";

// Field builders every feature's form schemas share (browser and server alike).

/** A text without control characters (tab and line breaks allowed), at most `max` long. */
export const plain = (max: number, tooLong: string) =>
  z
    .string()
    .max(max, { error: tooLong, abort: true })
    .refine((value) => !hasControlCharacters(value), controlCharacterMessage);
/** The same for a single-line field (a name, a title, a company): no tab or line break either. */
export const plainLine = (max: number, tooLong: string) =>
  plain(max, tooLong).refine((value) => !hasLineBreakOrTab(value), singleLineMessage);
/** A record's id as a form sends it. */
export const id = plain(200, "Unknown id.");
