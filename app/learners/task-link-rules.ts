import { controlCharacterMessage, hasControlCharacters, textLimits } from "~/core/text";

/** Task link rules, the same in the browser and on the server. */
export const taskLinkMessages = {
  empty: "Please enter a link",
  invalid: "Please enter a valid link starting with http:// or https://",
  tooLong: "The link is too long. Please use at most 2,048 characters.",
  tooMany: "You can keep at most 100 task links. Delete one to add another.",
} as const;

export const maxTaskLinkLength = textLimits.taskLink;

/** Links one learner may keep: every staff card lists them all. */
export const maxTaskLinksPerLearner = 100;

export type TaskLinkCheck = { ok: true; link: string } | { ok: false; message: string };

export function checkTaskLink(input: unknown): TaskLinkCheck {
  const link = typeof input === "string" ? input.trim() : "";
  if (!link) return { ok: false, message: taskLinkMessages.empty };
  if (link.length > maxTaskLinkLength) return { ok: false, message: taskLinkMessages.tooLong };
  if (hasControlCharacters(link)) return { ok: false, message: controlCharacterMessage };
  if (!/^https?:\/\//i.test(link)) return { ok: false, message: taskLinkMessages.invalid };
  try {
    const url = new URL(link);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
      return { ok: false, message: taskLinkMessages.invalid };
    }
  } catch {
    return { ok: false, message: taskLinkMessages.invalid };
  }
  return { ok: true, link };
}
