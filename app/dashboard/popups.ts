import type { MessageKind } from "~/messages/kinds";

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
  id: MessageKind | "offer";
  show: string;
  label: string;
  title: string;
  empty: string;
}[];

export type Popup = (typeof popups)[number];

// Fails to compile when a message kind has no popup.
export type PopupForEveryKind = Exclude<MessageKind, Popup["id"]> extends never ? true : never;

/** The popup a `?show=` value opens, if any. */
export function popupFor(show: string | null): Popup | undefined {
  return popups.find((popup) => popup.show === show);
}
