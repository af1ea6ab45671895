import { useEffect } from "react";
import { hasLiveSession } from "./auth-client";
import { onSessionAnnouncement } from "./session-channel";

/** How often an open signed-in page asks whether its session still holds. */
const CHECK_EVERY_MS = 15_000;

/**
 * Keeps a signed-in page live: signing out in another tab, or a session revoked or expired
 * on the server, sends this tab to the public page (at once for another tab's sign-out; on
 * focus or within CHECK_EVERY_MS otherwise).
 */
export function useLiveSession(): void {
  useEffect(() => {
    const leave = () => window.location.replace("/");
    const stopListening = onSessionAnnouncement((event) => event === "signed-out" && leave());
    let checking = false;
    const check = async () => {
      if (checking) return;
      checking = true;
      const live = await hasLiveSession();
      checking = false;
      if (live === false) leave();
    };
    const onVisible = () => document.visibilityState === "visible" && void check();
    window.addEventListener("focus", onVisible);
    document.addEventListener("visibilitychange", onVisible);
    const timer = setInterval(() => void check(), CHECK_EVERY_MS);
    return () => {
      stopListening();
      window.removeEventListener("focus", onVisible);
      document.removeEventListener("visibilitychange", onVisible);
      clearInterval(timer);
    };
  }, []);
}
