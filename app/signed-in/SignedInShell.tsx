import { Link, NavLink } from "react-router";
import type { AccessLevel } from "~/core/access";
import { LogoutButton } from "~/accounts/LogoutButton";
import { useLiveSession } from "~/accounts/use-live-session";
import { useSiteInfo } from "~/site/use-site-info";
import { Logo } from "~/ui/Logo";
import { ConnectionStatus } from "./ConnectionStatus";
import { ToastProvider } from "~/ui/toast";
import { useLiveRevalidation } from "~/ui/use-live-revalidation";

/** Where signed-in people find the public landing page (/ shows them their dashboard). */
export const publicSitePath = "/home";

const navLink = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-semibold whitespace-nowrap ${isActive ? "bg-blue-50 text-blue-900" : "text-slate-700 hover:bg-slate-100"}`;

/**
 * Every signed-in page: the header (logo to the public site, Dashboard, Admin Dashboard and
 * Enquiries with the count of new ones for staff, Logout), the toast region, and live data (events make the page's loaders run again).
 */
export function SignedInShell({ level, children }: { level: AccessLevel; children: React.ReactNode }) {
  const { site, newEnquiries } = useSiteInfo();
  useLiveSession();
  const live = useLiveRevalidation();
  return (
    <ToastProvider>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
          <Link to={publicSitePath} className="rounded-md" aria-label={`${site.name}: the public site`}>
            <Logo name={site.name} logo={site.logo} nameClassName="text-lg" />
          </Link>
          <nav aria-label="Signed in" className="flex flex-wrap items-center gap-1">
            <NavLink to="/dashboard" className={navLink} end>
              Dashboard
            </NavLink>
            {level !== "learner" && (
              <NavLink to="/staff" className={navLink}>
                Admin Dashboard
              </NavLink>
            )}
            {level !== "learner" && (
              <NavLink to="/staff/enquiries" className={navLink}>
                Enquiries
                {newEnquiries ? " " : null}
                {newEnquiries ? (
                  <span className="ml-1 rounded-full bg-blue-800 px-2 py-0.5 text-xs font-bold text-white">
                    {newEnquiries}
                    <span className="sr-only"> new</span>
                  </span>
                ) : null}
              </NavLink>
            )}
            <LogoutButton className="rounded-md px-3 py-2 font-semibold text-slate-700 hover:bg-slate-100" />
          </nav>
        </div>
      </header>
      <ConnectionStatus live={live} />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto min-h-[60vh] max-w-7xl px-4 py-8"
        data-live={live ? "connected" : "connecting"}
      >
        {children}
      </main>
    </ToastProvider>
  );
}
