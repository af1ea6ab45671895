import { useEffect, useRef, useState } from "react";
import { Logo } from "~/ui/Logo";
import { primaryButton } from "~/ui/styles";
import { useSiteInfo } from "~/site/use-site-info";

/** The menu buttons and the section each one scrolls to. */
export const menuItems = [
  { label: "Home", target: "home" },
  { label: "Features", target: "features" },
  { label: "Services", target: "services" },
  { label: "Training", target: "training" },
  { label: "Contact", target: "contact" },
] as const;

/**
 * Scrolls smoothly to a section (instantly for people who ask for reduced motion) and keeps
 * the address bar's #fragment in step, without a router navigation.
 */
function scrollToSection(event: React.MouseEvent<HTMLAnchorElement>, target: string) {
  const section = document.getElementById(target);
  if (!section || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  section.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  window.history.replaceState(window.history.state, "", `#${target}`);
}

const menuLink =
  "rounded-md px-3 py-2 font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100 hover:text-blue-800";

export function TopBar({ accountAction }: { accountAction?: React.ReactNode }) {
  const { site } = useSiteInfo();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      // A dialog opened from the menu (the auth modal) handles its own Esc and marks it handled.
      if (event.key !== "Escape" || event.defaultPrevented) return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    // Widening past the breakpoint shows the desktop menu; the mobile one must not linger.
    const wide = window.matchMedia("(min-width: 1024px)");
    const onWide = () => wide.matches && setOpen(false);
    document.addEventListener("keydown", onKeyDown);
    wide.addEventListener("change", onWide);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      wide.removeEventListener("change", onWide);
    };
  }, [open]);

  const links = (onNavigate?: () => void) =>
    menuItems.map((item) => (
      <li key={item.target}>
        <a
          href={`#${item.target}`}
          className={`block ${menuLink}`}
          onClick={(event) => {
            scrollToSection(event, item.target);
            onNavigate?.();
          }}
        >
          {item.label}
        </a>
      </li>
    ));

  const getStarted = (onNavigate?: () => void) => (
    <a
      href="#training"
      className={primaryButton}
      onClick={(event) => {
        scrollToSection(event, "training");
        onNavigate?.();
      }}
    >
      Get Started
    </a>
  );

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 px-4 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 lg:gap-4">
        <a
          href="#home"
          className="mr-auto shrink-0 rounded-md"
          aria-label={`${site.name} home`}
          onClick={(event) => scrollToSection(event, "home")}
        >
          {/* On phones the name gives its room to the account buttons. */}
          <Logo name={site.name} nameClassName="max-sm:hidden" />
        </a>

        {/* The full menu from 1024 px: below that, it and the account buttons don't fit on one line. */}
        <nav aria-label="Main" className="hidden items-center gap-2 lg:flex">
          <ul className="flex items-center lg:gap-1">{links()}</ul>
          {/* Buttons keep their one-line labels at the narrowest desktop widths. */}
          <div className="ml-2 shrink-0 whitespace-nowrap">{getStarted()}</div>
        </nav>

        {/* Outside the menu: at every width, signing up or in is one tap from the first screen. */}
        {accountAction && <div className="flex shrink-0 items-center gap-2 whitespace-nowrap">{accountAction}</div>}

        <button
          ref={toggleRef}
          type="button"
          className="inline-flex shrink-0 items-center gap-2 rounded-md border border-slate-300 px-3 py-2 font-medium text-slate-800 hover:bg-slate-100 lg:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen((value) => !value)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor">
            <path strokeWidth="2" strokeLinecap="round" d={open ? "M6 6l12 12M18 6L6 18" : "M4 7h16M4 12h16M4 17h16"} />
          </svg>
          {/* Below 360 px the word gives way so the bar's buttons fit; it still names the button. */}
          <span className="max-[359px]:sr-only">Menu</span>
        </button>

        {/* An overlay under the (sticky, so positioned) bar: opening it pushes no content down. */}
        <nav
          id="mobile-menu"
          aria-label="Main"
          hidden={!open}
          className="absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 pt-2 pb-4 shadow-lg lg:hidden"
        >
          <ul className="flex flex-col gap-1">{links(() => setOpen(false))}</ul>
          <div className="mt-3 flex flex-col gap-2 border-t border-slate-200 pt-3">
            {getStarted(() => setOpen(false))}
          </div>
        </nav>
      </div>
    </header>
  );
}
