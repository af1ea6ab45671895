import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { postAuth } from "./auth-client";
import { errorLine } from "./form-styles";
import { announceSession } from "./session-channel";

/** Logout, after a Yes/No confirmation; Yes signs out everywhere in this browser and shows the public page. */
export function LogoutButton({ className }: { className?: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const signOut = async () => {
    setBusy(true);
    setError("");
    const answer = await postAuth("/sign-out", {});
    if (!answer.ok) {
      setBusy(false);
      setError(answer.message);
      return;
    }
    announceSession("signed-out");
    window.location.replace("/");
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError("");
      }}
    >
      <Dialog.Trigger className={className ?? secondaryButton}>Logout</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center bg-slate-900/60 p-4">
          <Dialog.Content className="w-full max-w-sm rounded-xl bg-white p-6 shadow-2xl">
            <Dialog.Title className="text-xl font-bold text-slate-900">Logout</Dialog.Title>
            <Dialog.Description className="mt-2 text-slate-700">Are you sure you want to log out?</Dialog.Description>
            <p role="alert" className={`mt-2 ${errorLine}`}>
              {error}
            </p>
            <div className="mt-4 flex justify-end gap-3">
              <Dialog.Close className={secondaryButton}>No</Dialog.Close>
              <button type="button" className={primaryButton} onClick={signOut} disabled={busy}>
                Yes
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
