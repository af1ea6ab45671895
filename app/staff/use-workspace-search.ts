import { useEffect, useRef, useState } from "react";
import { useNavigation, useSearchParams } from "react-router";
import { useToast } from "~/ui/toast";
import { staffMessages } from "~/learners/staff-messages";
import { pageSizes } from "./staff-types";

/** What the workspace's address can be told to change: the search, a filter, the sort, page or page size. */
export interface SearchChange {
  q?: string;
  course?: string;
  page?: number;
  size?: number;
  /** Any other filter or the sort, by its address name ("" removes it). */
  set?: Partial<
    Record<"batch" | "noResume" | "unread" | "inactive" | "stage" | "from" | "to" | "sort" | "dir", string>
  >;
}

/**
 * The workspace's search state, which lives in the address (`q`, the filters, `sort`, `dir`,
 * `page`, `size`, `selected`) so reload, Back and shared links all show the same list. The box's text runs a
 * search shortly after typing stops.
 */
export function useWorkspaceSearch(shownQuery: string) {
  const [params, setParams] = useSearchParams();
  const toast = useToast();
  const [searchText, setSearchText] = useState(shownQuery);
  const navigation = useNavigation();

  // The URL being navigated to: a search typed a moment ago and a course chosen while its
  // page loads must both end up in it (the location only changes once a page has loaded, and
  // a page that lands while a later one is on its way is not what was asked for last).
  const intended = useRef(params);
  useEffect(() => {
    if (navigation.state === "idle") intended.current = params;
  }, [params, navigation.state]);

  // A card opened after the last keystroke: the typed search, when it runs, leaves it open.
  const openedSinceTyping = useRef(false);
  const type = (text: string) => {
    openedSinceTyping.current = false;
    setSearchText(text);
  };

  /**
   * A new search, course or page is a new entry in the history (Back returns to the last). It
   * closes the open card, unless the card was opened after the search was typed.
   */
  const go = (change: SearchChange, keepOpenCard = false) => {
    const next = new URLSearchParams(intended.current);
    const set = (name: string, value: string) => (value ? next.set(name, value) : next.delete(name));
    if (change.q !== undefined) {
      set("q", change.q.trim());
      setRequestedQuery(change.q.trim());
    }
    if (change.course !== undefined) set("course", change.course);
    for (const [name, value] of Object.entries(change.set ?? {})) set(name, value);
    if (change.size !== undefined) set("size", change.size === pageSizes[0] ? "" : String(change.size));
    set("page", change.page && change.page > 1 ? String(change.page) : "");
    if (!keepOpenCard) next.delete("selected");
    intended.current = next;
    setParams(next, { preventScrollReset: true });
  };

  // Back and Forward change the URL: the box then shows the search of the page shown. A page
  // this box asked for arriving late leaves alone what was typed since.
  const [lastShown, setLastShown] = useState(shownQuery);
  const [requestedQuery, setRequestedQuery] = useState(shownQuery);
  if (lastShown !== shownQuery) {
    setLastShown(shownQuery);
    if (shownQuery !== requestedQuery) {
      setRequestedQuery(shownQuery);
      setSearchText(shownQuery);
    }
  }

  // The search runs shortly after typing stops, not on every key.
  useEffect(() => {
    if (searchText.trim() === shownQuery) return;
    const timer = setTimeout(() => go({ q: searchText }, openedSinceTyping.current), 250);
    return () => clearTimeout(timer);
    // Only typing starts a search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchText]);

  /** Opens a learner's card (or closes it, null): in the URL too, so a reload keeps it open. */
  const select = (id: string | null) => {
    const next = new URLSearchParams(intended.current);
    if (id) next.set("selected", id);
    else next.delete("selected");
    intended.current = next;
    setParams(next, { preventScrollReset: true, replace: true });
    openedSinceTyping.current = id !== null;
    if (id) toast.clear(staffMessages.selectLearner);
  };

  /** Empties the box, drops every filter and shows every learner again (the sort stays). */
  const clearSearch = () => {
    type("");
    const none = { batch: "", noResume: "", unread: "", inactive: "", stage: "", from: "", to: "" };
    go({ q: "", course: "", set: none });
  };

  return { searchText, setSearchText: type, go, select, clearSearch };
}

export type WorkspaceSearch = ReturnType<typeof useWorkspaceSearch>;
