import { useState } from "react";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { secondaryButton } from "~/ui/styles";
import { postAuth } from "./auth-client";
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
    <>
      <button type="button" className={className ?? secondaryButton} onClick={() => setOpen(true)}>
        Logout
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setError("");
        }}
        title="Logout"
        description="Are you sure you want to log out?"
        onYes={signOut}
        busy={busy}
        error={error}
      />
    </>
  );
}
