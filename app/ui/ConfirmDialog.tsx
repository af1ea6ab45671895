import * as Dialog from "@radix-ui/react-dialog";
import { ErrorLine } from "./form";
import { dangerButton, primaryButton, secondaryButton } from "./styles";

/**
 * A Yes/No confirmation. No (or Esc) closes it and changes nothing; `danger` marks a Yes that
 * deletes. `labels` name the two buttons by what they do where Yes / No would not say it.
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
}) {
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
            <div className="mt-4 flex justify-end gap-3">
              <Dialog.Close className={secondaryButton}>{labels.no}</Dialog.Close>
              <button type="button" className={danger ? dangerButton : primaryButton} onClick={onYes} disabled={busy}>
                {labels.yes}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
