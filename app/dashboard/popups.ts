import { z } from "zod";
import { maxMarkedAtOnce, readableKinds, type ReadableKind } from "~/messages/kinds";
import { controlCharacterMessage, hasControlCharacters } from "~/core/text";

/** The dashboard's content popups, in the order of their buttons; `show` is their URL value. */
export const popups = [
  { id: "task", show: "tasks", label: "Tasks", title: "Tasks", empty: "No tasks yet." },
  {
    id: "certificate",
    show: "certificates",
    label: "Training Certificate",
    title: "Training Certificates",
    empty: "No certificates yet.",
  },
  { id: "offer", show: "offer-letter", label: "Offer letter", title: "Offer letter", empty: "No offer letter yet." },
  { id: "notice", show: "notices", label: "Notification", title: "Notifications", empty: "No notices yet." },
] as const satisfies readonly {
  id: ReadableKind;
  show: string;
  label: string;
  title: string;
  empty: string;
}[];

export type Popup = (typeof popups)[number];

// Fails to compile when a kind the learner reads has no popup.
export type PopupForEveryKind = Exclude<ReadableKind, Popup["id"]> extends never ? true : never;

/** The popup a `?show=` value opens, if any. */
export function popupFor(show: string | null): Popup | undefined {
  return popups.find((popup) => popup.show === show);
}

export const markReadMessages = {
  kind: "Unknown list.",
  noIds: "Name the items that were shown.",
  tooMany: `At most ${maxMarkedAtOnce.toLocaleString("en-US")} items can be marked read at once.`,
  badId: "Unknown item.",
};

/**
 * The "mark read" intent's fields: the popup's kind, and the ids of the unread items it showed,
 * separated by spaces (for the offer letter, the version shown: its date).
 */
export const markReadSchema = z.object({
  kind: z.enum(readableKinds, { error: markReadMessages.kind }),
  ids: z
    .string({ error: markReadMessages.noIds })
    // Ids are at most 200 characters; the length is checked before anything splits the text.
    .max(maxMarkedAtOnce * 201, { error: markReadMessages.tooMany, abort: true })
    .refine((value) => !hasControlCharacters(value), { error: controlCharacterMessage, abort: true })
    .transform((value) => value.split(/\s+/).filter((id) => id.length > 0))
    .pipe(
      z
        .array(z.string().max(200, { error: markReadMessages.badId }))
        .min(1, { error: markReadMessages.noIds })
        .max(maxMarkedAtOnce, { error: markReadMessages.tooMany }),
    ),
});
