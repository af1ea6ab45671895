import { Logo } from "~/ui/Logo";
import { primaryButton } from "~/ui/styles";
import { menuIcon } from "~/site/enhance";
import { useSiteInfo } from "~/site/use-site-info";
import { shownCards } from "./sections";
import { useLandingContent } from "./use-landing-content";

/** The menu buttons and the section each one scrolls to. */
export const menuItems = [
  { label: "Home", target: "home" },
  { label: "Features", target: "features" },
  { label: "Services", target: "services" },
  { label: "Training", target: "training" },
  { label: "Contact", target: "contact" },
] as const;

const menuLink =
  "rounded-md px-3 py-2 font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100 hover:text-blue-800";

/**
 * Without JavaScript the toggle can't open the menu: the links then show as a row under the
 * bar instead (and the bar scrolls away with the page, so it covers nothing).
 */
const noScriptMenu = `[data-menu-toggle]{display:none!important}
#mobile-menu{display:block!important;position:static;box-shadow:none;border:0;padding:0 0 .5rem}
#mobile-menu ul{flex-direction:row;flex-wrap:wrap}
header[data-top-bar]{position:relative}
@media (min-width:1024px){#mobile-menu{display:none!important}}`;

/**
 * The landing page's top bar. Plain links and a toggle button: the inline script
 * (app/site/enhance.ts) opens the menu and scrolls smoothly, with or without React.
 */
export function TopBar({ accountAction }: { accountAction?: React.ReactNode }) {
  const { site } = useSiteInfo();
  const content = useLandingContent();
  // A section admins left empty is not on the page, so not in the menu either.
  const hidden = new Set([
    ...(shownCards(content.features.cards).length === 0 ? ["features"] : []),
    ...(shownCards(content.services.cards).length === 0 ? ["services"] : []),
  ]);

  const links = menuItems
    .filter((item) => !hidden.has(item.target))
    .map((item) => (
      <li key={item.target}>
        <a href={`#${item.target}`} data-scroll className={`block ${menuLink}`}>
          {item.label}
        </a>
      </li>
    ));

  const getStarted = (
    <a href="#training" data-scroll className={primaryButton}>
      Get Started
    </a>
  );

  return (
    <>
      {/* Before the bar, not in it: a style in the body may only style what comes after its parent. */}
      <noscript>
        <style>{noScriptMenu}</style>
      </noscript>
      {/* Hidden until read to its last element (the menu below): on a slow or busy device the
          browser may paint the bar half read, and the rest arriving would move what it showed. */}
      <header
        data-top-bar
        className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 px-4 backdrop-blur [&:not(:has(#mobile-menu))]:invisible"
      >
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 lg:gap-4">
          <a href="#home" data-scroll className="mr-auto shrink-0 rounded-md" aria-label={`${site.name} home`}>
            {/* On phones the name gives its room to the account buttons. */}
            <Logo name={site.name} logo={site.logo} nameClassName="max-sm:hidden" />
          </a>

          {/* The full menu from 1024 px: below that, it and the account buttons don't fit on one line. */}
          <nav aria-label="Main" className="hidden items-center gap-2 lg:flex">
            <ul className="flex items-center lg:gap-1">{links}</ul>
            {/* Buttons keep their one-line labels at the narrowest desktop widths. */}
            <div className="ml-2 shrink-0 whitespace-nowrap">{getStarted}</div>
          </nav>

          {/* Outside the menu: at every width, signing up or in is one tap from the first screen. */}
          {accountAction && <div className="flex shrink-0 items-center gap-2 whitespace-nowrap">{accountAction}</div>}

          <button
            type="button"
            data-menu-toggle
            className="inline-flex shrink-0 items-center gap-2 rounded-md border border-slate-300 px-3 py-2 font-medium text-slate-800 hover:bg-slate-100 lg:hidden"
            aria-expanded="false"
            aria-controls="mobile-menu"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor">
              <path strokeWidth="2" strokeLinecap="round" d={menuIcon.closed} />
            </svg>
            {/* Below 360 px the word gives way so the bar's buttons fit; it still names the button. */}
            <span className="max-[359px]:sr-only">Menu</span>
          </button>
        </div>

        {/* An overlay under the (sticky, so positioned) bar: opening it pushes no content down. */}
        {/* Shown by the inline script's data-open (not the hidden attribute, which the no-script style could not override). */}
        <nav
          id="mobile-menu"
          aria-label="Main"
          className="absolute inset-x-0 top-full hidden border-b border-slate-200 bg-white px-4 pt-2 pb-4 shadow-lg data-open:block lg:hidden lg:data-open:hidden"
        >
          <ul className="flex flex-col gap-1">{links}</ul>
          <div className="mt-3 flex flex-col gap-2 border-t border-slate-200 pt-3">{getStarted}</div>
        </nav>
      </header>
    </>
  );
}
