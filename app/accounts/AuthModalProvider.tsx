import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useState } from "react";
import { useNavigate, useRevalidator, useSearchParams } from "react-router";
import type { AuthMode } from "./auth-form-props";
import { announceSession, onSessionAnnouncement } from "./session-channel";
import { signedInLanding } from "./signed-in-landing";

// Loaded on first use, so the public page's script stays small.
const AuthModal = lazy(() => import("./AuthModal"));

const AuthModalContext = createContext<((mode: AuthMode) => void) | null>(null);

/** `?auth=login`, `?auth=signup` (and `?auth=reset` from an expired reset link) open the modal. */
function modeFromParam(value: string | null): AuthMode | null {
  if (value === "login" || value === "signup") return value;
  if (value === "reset") return "forgot";
  return null;
}

/** A path on this site to return to after signing in; anything else (another host) is "/". */
function safeRedirect(target: string | null): string {
  // Without a page to return to, / sends each person to their own start (see routes/home.tsx).
  if (!target || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return signedInLanding;
  return target;
}

/**
 * Holds the one auth modal of the public page; buttons anywhere inside open it. `courseOptions`
 * are the sign-up form's courses, from the page's loader.
 */
export function AuthModalProvider({
  children,
  courseOptions,
}: {
  children: React.ReactNode;
  courseOptions: readonly string[];
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const param = searchParams.get("auth");
  const [mode, setMode] = useState<AuthMode | null>(() => modeFromParam(param));
  const [seenParam, setSeenParam] = useState(param);
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const open = useCallback((next: AuthMode) => {
    setOpener(document.activeElement instanceof HTMLElement ? document.activeElement : null);
    setMode(next);
  }, []);

  // A client-side navigation to /?auth=… opens the modal too.
  if (param !== seenParam) {
    setSeenParam(param);
    const next = modeFromParam(param);
    if (next) setMode(next);
  }

  // Signed in in another tab: this one shows the signed-in view as well.
  useEffect(
    () => onSessionAnnouncement((event) => event === "signed-in" && void revalidator.revalidate()),
    [revalidator],
  );

  const close = () => {
    setMode(null);
    if (param !== null) {
      const next = new URLSearchParams(searchParams);
      next.delete("auth");
      setSearchParams(next, { replace: true, preventScrollReset: true });
    }
  };

  const signedIn = () => {
    setMode(null);
    announceSession("signed-in");
    // Runs the loaders again: with the new session cookie, / shows the signed-in view, or the
    // signed-in page that sent the visitor here to log in.
    void navigate(safeRedirect(searchParams.get("redirectTo")), { replace: true });
  };

  return (
    <AuthModalContext value={open}>
      {children}
      {param !== null && (
        <noscript>
          <p className="fixed inset-x-0 bottom-0 z-50 bg-amber-100 px-4 py-3 text-center font-medium text-slate-900">
            Signing up and logging in need JavaScript. Please turn it on in your browser and reload this page.
          </p>
        </noscript>
      )}
      {mode && (
        <Suspense fallback={null}>
          <AuthModal
            mode={mode}
            courseOptions={courseOptions}
            onModeChange={setMode}
            onClose={close}
            onSignedIn={signedIn}
            // Opened by the address (?auth=…): focus goes back to the top bar's matching link.
            returnFocusTo={
              opener ??
              (typeof document === "undefined"
                ? null
                : document.querySelector<HTMLElement>(`[data-auth-opener="${mode}"]`))
            }
          />
        </Suspense>
      )}
    </AuthModalContext>
  );
}

/** Opens the auth modal in a mode; only inside AuthModalProvider. */
export function useOpenAuthModal(): (mode: AuthMode) => void {
  const open = useContext(AuthModalContext);
  if (!open) throw new Error("useOpenAuthModal needs an AuthModalProvider");
  return open;
}

const accountButton =
  "inline-flex items-center justify-center rounded-md border border-blue-800 px-3 py-2 text-sm font-semibold lg:px-4 lg:py-2.5 lg:text-base";

/**
 * The top bar's "Log in" and "Sign up". Links to `?auth=…`: on the landing page as sent (no
 * React), they load the page with the modal open; once React runs, they open it in place.
 */
export function AccountButtons() {
  const open = useOpenAuthModal();
  const link = (mode: "login" | "signup", label: string, className: string) => (
    <a
      href={`?auth=${mode}`}
      data-auth-opener={mode}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        open(mode);
      }}
      className={`${accountButton} ${className}`}
    >
      {label}
    </a>
  );
  return (
    <>
      {link("login", "Log in", "bg-white text-blue-800 hover:bg-blue-50")}
      {link("signup", "Sign up", "bg-blue-800 text-white shadow-sm hover:bg-blue-900")}
    </>
  );
}
