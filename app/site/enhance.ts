/** The mobile menu toggle's icon: three bars when closed, a cross when open. */
export const menuIcon = { closed: "M4 7h16M4 12h16M4 17h16", open: "M6 6l12 12M18 6L6 18" } as const;

/**
 * What the public pages do in the browser without React: the mobile menu toggle, smooth
 * scrolling of in-page links marked `data-scroll`, Go to Top, and timing the enquiry form (a time
 * the server signed when the visitor first touched it goes with it, so a bot's instant submission
 * is refused; the cached page cannot carry one), and giving each enquiry its change key. It is inlined in every page
 * (about 1 KB gzip), so the anonymous landing page is interactive without loading React at all,
 * and the same markup works unchanged when React does hydrate (it listens on the document and
 * React renders these elements without handlers of its own).
 */
function enhancePage(icon: typeof menuIcon) {
  const doc = document;
  const toggle = () => doc.querySelector<HTMLElement>('[aria-controls="mobile-menu"]');
  const isOpen = () => toggle()?.getAttribute("aria-expanded") === "true";
  const setMenu = (open: boolean) => {
    const button = toggle();
    const menu = doc.getElementById("mobile-menu");
    if (!button || !menu) return;
    button.setAttribute("aria-expanded", String(open));
    menu.toggleAttribute("data-open", open);
    button.querySelector("path")?.setAttribute("d", open ? icon.open : icon.closed);
  };
  const smooth = (): ScrollBehavior =>
    window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";

  doc.addEventListener("click", (event) => {
    const target = (event.target as Element | null)?.closest?.("a, button");
    if (!target || event.defaultPrevented) return;
    if (target.getAttribute("aria-controls") === "mobile-menu") return setMenu(!isOpen());
    if (target.hasAttribute("data-go-to-top")) {
      window.scrollTo({ top: 0, behavior: smooth() });
      doc.getElementById("main")?.focus({ preventScroll: true });
      return;
    }
    if (!target.hasAttribute("data-scroll")) return;
    if (target.closest("#mobile-menu")) setMenu(false);
    const id = (target.getAttribute("href") ?? "").slice(1);
    const section = doc.getElementById(id);
    if (!section || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    section.scrollIntoView({ behavior: smooth(), block: "start" });
    // Keeps the address bar's #fragment in step without a navigation.
    window.history.replaceState(window.history.state, "", `#${id}`);
  });

  // The enquiry form's signed time, fetched once, when the visitor first touches the form.
  let formTime: Promise<unknown> | undefined;
  let formTimeSettled = false;
  const formTimeField = (target: EventTarget | null) => {
    const form = (target as Element | null)?.closest?.("form[data-enquiry-form]") as HTMLFormElement | null;
    const field = form?.elements.namedItem("formTime");
    return field instanceof HTMLInputElement ? field : null;
  };
  doc.addEventListener("focusin", (event) => {
    const field = formTimeField(event.target);
    if (!field || formTime) return;
    formTime = fetch("/api/enquiry-time", { cache: "no-store" })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { formTime?: unknown } | null) => {
        if (typeof body?.formTime === "string") field.value = body.formTime;
      })
      // Offline or refused: the form goes without it and the server answers the check step.
      .catch(() => {})
      .finally(() => (formTimeSettled = true));
  });
  doc.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    // One key per enquiry, kept for a resend: the server stores the enquiry once.
    const key = form.hasAttribute?.("data-enquiry-form") ? form.elements.namedItem("actionKey") : null;
    if (key instanceof HTMLInputElement && !key.value) key.value = crypto.randomUUID();
    // Offline, the browser would drop the page and what was typed: it stays, with Retry (same key).
    if (key && !navigator.onLine) {
      event.preventDefault();
      let notice = form.querySelector("[data-unreachable]");
      if (!notice) {
        notice = doc.createElement("p");
        notice.setAttribute("data-unreachable", "");
        notice.setAttribute("role", "alert");
        notice.className = "col-span-2 rounded-md border border-red-700 bg-red-50 p-3 font-medium text-red-800";
        const retry = doc.createElement("button");
        retry.type = "button";
        retry.textContent = "Retry";
        retry.className = "ml-3 underline";
        retry.addEventListener("click", () => form.requestSubmit());
        notice.append("Could not reach Upskill. Your text is kept.", retry);
        form.prepend(notice);
      }
      return;
    }
    form.querySelector("[data-unreachable]")?.remove();
    // Sent while the time is still on its way: wait for it rather than go without.
    if (!formTimeField(form) || !formTime || formTimeSettled) return;
    event.preventDefault();
    void formTime.then(() => form.submit());
  });

  doc.addEventListener("keydown", (event) => {
    // A dialog opened from the menu (the auth modal) handles its own Esc and marks it handled.
    if (event.key !== "Escape" || event.defaultPrevented || !isOpen()) return;
    setMenu(false);
    toggle()?.focus();
  });

  // Widening past the breakpoint shows the desktop menu; the mobile one must not linger.
  window.matchMedia("(min-width: 1024px)").addEventListener("change", (event) => event.matches && setMenu(false));

  // Go to Top appears only when the page is scrolled to its bottom.
  let frame = 0;
  const update = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      const button = doc.querySelector<HTMLElement>("[data-go-to-top]");
      const root = doc.documentElement;
      if (button) button.hidden = !(window.scrollY > 0 && window.innerHeight + window.scrollY >= root.scrollHeight - 4);
    });
  };
  window.addEventListener("scroll", update, { passive: true });
  window.addEventListener("resize", update);
  update();
}

/** The script's source, inlined at the end of <body> (the CSP allows it by nonce or hash). */
export const enhanceScript = `(${enhancePage.toString()})(${JSON.stringify(menuIcon)})`;
