import { useState, useSyncExternalStore } from "react";

/** Where a draft is kept in this browser: per signed-in person and per what it is for. */
export const draftKey = (userId: string, what: string) => `upskill-draft:${userId}:${what}`;

export function readDraft(key: string): string {
  try {
    return localStorage.getItem(key) ?? "";
  } catch {
    // Storage turned off or full: the draft lives as long as the page.
    return "";
  }
}

export function writeDraft(key: string, text: string) {
  try {
    if (text) localStorage.setItem(key, text);
    else localStorage.removeItem(key);
  } catch {
    // As above: nothing kept across reloads, the page still works.
  }
}

const noSubscription = () => () => {};

/** False while the page is rendered on the server and hydrated, true after: when drafts may be read. */
export function useDraftsReadable(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * Text typed into a compose area, kept in this browser across reloads until it is sent (set to
 * "") or cleared. Read once the page is hydrated, so the server's page and the browser's agree.
 */
export function useDraftState(key: string): [string, (text: string) => void] {
  const readable = useDraftsReadable();
  const [text, setText] = useState("");
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  if (readable && loadedFor !== key) {
    setLoadedFor(key);
    setText(readDraft(key));
  }
  const set = (next: string) => {
    setText(next);
    if (loadedFor === key) writeDraft(key, next);
  };
  return [text, set];
}
