import { useEffect, useRef } from "react";

/** The workspace's keys, as the `?` dialog lists them. */
export const workspaceShortcuts: [string, string][] = [
  ["/", "Go to the search (Escape leaves it)"],
  ["j", "Next learner"],
  ["k", "Previous learner"],
  ["Enter", "Open or close the learner"],
  ["c", "Write to learners"],
  ["Escape", "Close the open learner, dialog or menu"],
  ["?", "Show these keys"],
];

/** A key pressed where it types, or while a dialog holds focus, is the field's or the dialog's. */
function belongsElsewhere(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target;
  if (target instanceof HTMLElement) {
    if (target.isContentEditable) return true;
    if (target.closest("input, textarea, select, [role=dialog]")) return true;
  }
  return document.querySelector("[role=dialog]") !== null;
}

/** The open buttons of the learners shown (table rows on wide screens, cards on narrow ones). */
function learnerButtons(): HTMLElement[] {
  const items = document.querySelectorAll<HTMLElement>("[data-testid=learner-row], [data-testid=learner-card]");
  return [...items]
    .filter((item) => item.offsetParent !== null)
    .map((item) => item.querySelector<HTMLElement>("button[aria-expanded]"))
    .filter((button): button is HTMLElement => button !== null);
}

/** Starts writing: the side panel's text area on wide screens, the sheet (`openSheet`) on narrow ones. */
function compose(openSheet: () => void) {
  const text = document.querySelector<HTMLTextAreaElement>("aside[data-composer] textarea");
  if (text && text.offsetParent !== null) text.focus();
  else openSheet();
}

/** Closes the open learner; focus stays on their own button (what was inside their card goes with it). */
function closeOpenLearner(closeLearner: () => void) {
  const open = [...document.querySelectorAll<HTMLElement>("[data-selected=true]")].find(
    (item) => item.offsetParent !== null,
  );
  closeLearner();
  open?.querySelector<HTMLElement>("button[aria-expanded]")?.focus();
}

/**
 * The workspace's keyboard shortcuts: `/` search, `j`/`k` move between learners (Enter opens,
 * as on any button), `c` compose, Escape closes the open learner, `?` lists them. None fires
 * while typing in a field or while a dialog is open.
 */
export function useWorkspaceKeys(options: {
  /** Opens the composer's sheet (narrow screens). */
  openSheet: () => void;
  onHelp: () => void;
  /** Closes the open learner; null when none is open. */
  closeLearner: (() => void) | null;
}) {
  const handlers = useRef(options);
  useEffect(() => {
    handlers.current = options;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Escape in the search leaves it (the text stays), so the keys work on the list again.
      if (event.key === "Escape" && event.target instanceof HTMLInputElement && event.target.type === "search") {
        event.preventDefault();
        event.target.blur();
        return;
      }
      if (belongsElsewhere(event)) return;
      const { key } = event;
      if (key === "/") {
        const search = document.querySelector<HTMLInputElement>("main input[type=search]");
        if (!search) return;
        event.preventDefault();
        search.focus();
        search.select();
      } else if (key === "j" || key === "k") {
        const buttons = learnerButtons();
        if (buttons.length === 0) return;
        event.preventDefault();
        const at = buttons.findIndex((button) => button.closest("tbody, li")?.contains(document.activeElement));
        const next = at === -1 ? (key === "j" ? 0 : buttons.length - 1) : at + (key === "j" ? 1 : -1);
        buttons[Math.max(0, Math.min(buttons.length - 1, next))]?.focus();
      } else if (key === "c") {
        event.preventDefault();
        compose(handlers.current.openSheet);
      } else if (key === "?") {
        event.preventDefault();
        handlers.current.onHelp();
      } else if (key === "Escape") {
        const { closeLearner } = handlers.current;
        if (!closeLearner) return;
        event.preventDefault();
        closeOpenLearner(closeLearner);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
