import { z } from "zod";
import { id, plain, plainLine } from "~/core/fields";

// A saved view's fields and texts, shared by the workspace's form and its intents.

/** A view as its owner's list shows it. */
export interface SavedView {
  id: string;
  name: string;
  /** The workspace's address query: filters, sort and page size. */
  query: string;
}

export const maxSavedViews = 50;

export const savedViewMessages = {
  nameRequired: "Please name the view.",
  saved: (name: string) => `View "${name}" saved.`,
  replaced: (name: string) => `View "${name}" updated with these filters.`,
  deleted: (name: string) => `View "${name}" deleted.`,
  gone: "That view was already deleted.",
  tooMany: `You have ${maxSavedViews} saved views, the most one person may keep. Delete one first.`,
  unknown: "That saved view no longer exists.",
} as const;

export const saveViewSchema = z.object({
  name: plainLine(80, "A view's name can be at most 80 characters."),
  query: plain(2000, "Those filters are too long to save.").default(""),
});

export const deleteViewSchema = z.object({ viewId: id.pipe(z.string().min(1, "Unknown view.")) });
