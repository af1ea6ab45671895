import { useState, useSyncExternalStore } from "react";

const subscribe = (onChange: () => void) => {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
};

/** Whether the browser says it is online (the server's page assumes so). */
function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * Says, under the header, when the browser is offline (what is typed stays; changes can be sent
 * again once back) and when the live updates, once connected, are reconnecting.
 */
export function ConnectionStatus({ live }: { live: boolean }) {
  const online = useOnline();
  const [wasLive, setWasLive] = useState(false);
  if (live && !wasLive) setWasLive(true);
  const text = !online
    ? "You are offline. What you type is kept; send it again once you are back online."
    : wasLive && !live
      ? "Reconnecting to live updates…"
      : "";
  return (
    <div role="status" className="mx-auto max-w-7xl px-4">
      {text && (
        <p
          className="mt-3 rounded-md border border-amber-700 bg-amber-50 px-3 py-2 font-medium text-amber-900"
          data-connection={online ? "reconnecting" : "offline"}
        >
          {text}
        </p>
      )}
    </div>
  );
}
