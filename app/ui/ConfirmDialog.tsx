import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { ErrorLine } from "./form";
import { LostChange } from "./LostChange";
import type { ActionHandle } from "./use-action";
import { dangerButton, primaryButton, secondaryButton } from "./styles";

/**
 * A Yes/No confirmation. No (or Esc) closes it and changes nothing; `danger` marks a Yes that
 * deletes. `labels` name the two buttons by what they do where Yes / No would not say it.
 * Given the `action` Yes submits through, a Yes that could not reach Upskill says so in the
 * dialog with Retry (the same change again, made at most once), and Yes waits for it.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  onYes,
  busy = false,
  error = "",
  danger = false,
  labels = { yes: "Yes", no: "No" },
  children,
  action,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  onYes: () => void;
  busy?: boolean;
  error?: string;
  danger?: boolean;
  labels?: { yes: string; no: string } | undefined;
  /** Shown below the description: what will be sent, say. */
  children?: React.ReactNode;
  action?: ActionHandle;
}) {
  /** Yes was pressed in this opening: a lost change is this dialog's to show. */
  const [asked, setAsked] = useState(false);
  if (!open && asked) setAsked(false);
  const lost = asked && action?.lost === true;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center bg-slate-900/60 p-4">
          <Dialog.Content
            className={`max-h-[90vh] w-full overflow-y-auto rounded-xl bg-white p-6 shadow-2xl ${children ? "max-w-lg" : "max-w-sm"}`}
          >
            <Dialog.Title className="text-xl font-bold text-slate-900">{title}</Dialog.Title>
            <Dialog.Description className="mt-2 text-slate-700">{description}</Dialog.Description>
            {children}
            <ErrorLine message={error} className="mt-2" />
            {action && <LostChange action={action} shown={asked} className="mt-3" />}
            <div className="mt-4 flex justify-end gap-3">
              <Dialog.Close className={secondaryButton}>{labels.no}</Dialog.Close>
              <button
                type="button"
                className={danger ? dangerButton : primaryButton}
                onClick={() => {
                  setAsked(true);
                  onYes();
                }}
                disabled={busy || lost}
              >
                {labels.yes}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
