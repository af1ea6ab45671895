import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";

/** How long a success message stays. */
export const SUCCESS_MS = 3000;

interface Toast {
  kind: "success" | "error";
  text: string;
  /** Makes a repeated message a new one, so its 3 seconds start again. */
  n: number;
  /** Sends a failed change again (an error only). */
  retry?: () => void;
}

interface ToastApi {
  success(text: string): void;
  /** Stays until the next action, or until dismissed; with `retry`, a Retry button sends the change again. */
  error(text: string, retry?: () => void): void;
  /** Removes the message shown, or only this one if it is the one shown. */
  clear(text?: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);

/**
 * Feedback where the person is looking: a region fixed to the viewport, announced as a status
 * for success and as an alert for errors. One message at a time; a new one replaces the last.
 */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const api = useMemo<ToastApi>(
    () => ({
      success: (text) => setToast((last) => ({ kind: "success", text, n: (last?.n ?? 0) + 1 })),
      error: (text, retry) => setToast((last) => ({ kind: "error", text, n: (last?.n ?? 0) + 1, retry })),
      clear: (text) => setToast((last) => (text === undefined || last?.text === text ? null : last)),
    }),
    [],
  );
  useEffect(() => {
    if (toast?.kind !== "success") return;
    const timer = setTimeout(() => setToast((last) => (last === toast ? null : last)), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  const dismiss = useCallback(() => setToast(null), []);

  return (
    <ToastContext value={api}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 bottom-4 z-[70] flex flex-col items-center gap-2 px-4">
        <div role="status" className="contents" data-testid="toast-status">
          {toast?.kind === "success" && (
            <p className="pointer-events-auto rounded-lg bg-green-800 px-4 py-3 font-medium text-white shadow-lg">
              {toast.text}
            </p>
          )}
        </div>
        <div role="alert" className="contents" data-testid="toast-alert">
          {toast?.kind === "error" && (
            <p className="pointer-events-auto flex items-center gap-3 rounded-lg bg-red-800 px-4 py-3 font-medium text-white shadow-lg">
              <span>{toast.text}</span>
              {toast.retry && (
                <button
                  type="button"
                  onClick={toast.retry}
                  className="rounded px-2 py-0.5 text-sm font-semibold underline hover:bg-red-900"
                >
                  Retry
                </button>
              )}
              <button
                type="button"
                onClick={dismiss}
                className="rounded px-2 py-0.5 text-sm font-semibold underline hover:bg-red-900"
              >
                Dismiss
              </button>
            </p>
          )}
        </div>
      </div>
    </ToastContext>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast needs a ToastProvider");
  return api;
}
