import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useState } from "react";
import { ToastProvider } from "~/ui/toast";
import { noAuthEntries, type AuthMode } from "./auth-form-props";
import { ForgotPasswordForm } from "./ForgotPasswordForm";
import { SignInForm } from "./SignInForm";
import { SignUpForm } from "./SignUpForm";
import type { SignUpField } from "./sign-up-schema";

const titles: Record<AuthMode, string> = { login: "Log in", signup: "Sign up", forgot: "Forgot Password" };

export interface AuthModalProps {
  mode: AuthMode;
  /** The courses the sign-up form offers (admins keep them; the page's loader sends them). */
  courseOptions: readonly string[];
  onModeChange(mode: AuthMode): void;
  onClose(): void;
  /** After a successful sign-in or sign-up (the session cookie is set). */
  onSignedIn(): void;
  /** What had focus when the modal opened: it gets it back on close. */
  returnFocusTo?: HTMLElement | null;
}

/** The sign-in / sign-up / forgot-password dialog. */
export default function AuthModal({
  mode,
  courseOptions,
  onModeChange,
  onClose,
  onSignedIn,
  returnFocusTo,
}: AuthModalProps) {
  const [entries, setEntries] = useState(noAuthEntries);
  const setEntry = useCallback(
    (field: SignUpField, value: string) => setEntries((current) => ({ ...current, [field]: value })),
    [],
  );
  const form = { entries, setEntry, onModeChange };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        {/* Content inside the overlay: a tall form scrolls, and fixed children (the toast) sit on the screen. */}
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center overflow-y-auto bg-slate-900/60 p-4">
          <Dialog.Content
            aria-describedby={undefined}
            // Radix returns focus to a Dialog.Trigger; this modal is opened from several places.
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (returnFocusTo?.isConnected) returnFocusTo.focus();
            }}
            className="relative w-full max-w-md rounded-xl bg-white p-6 shadow-2xl sm:p-8"
          >
            {/* The page around a modal dialog is hidden from assistive technology: its toasts are its own. */}
            <ToastProvider>
              <Dialog.Title className="text-2xl font-bold text-slate-900">{titles[mode]}</Dialog.Title>
              {mode === "login" && <SignInForm {...form} onSignedIn={onSignedIn} />}
              {mode === "signup" && <SignUpForm {...form} courseOptions={courseOptions} onSignedIn={onSignedIn} />}
              {mode === "forgot" && <ForgotPasswordForm {...form} />}
              <Dialog.Close
                className="absolute top-3 right-3 rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
                aria-label="Close"
              >
                <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor">
                  <path strokeWidth="2" strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
                </svg>
              </Dialog.Close>
            </ToastProvider>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
