import { useEffect } from "react";

/** A short confirmation at the bottom of the screen, announced politely; it goes after 5 s. */
export function Toast({ message, onDone }: { message: string; onDone: () => void }) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onDone, 5_000);
    return () => clearTimeout(timer);
  }, [message, onDone]);

  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-6 z-[60] flex justify-center px-4"
    >
      {message ? (
        <p className="pointer-events-auto rounded-lg bg-slate-900 px-4 py-3 text-sm font-medium text-white shadow-lg">
          {message}
        </p>
      ) : null}
    </div>
  );
}
