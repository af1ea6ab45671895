import * as Dialog from "@radix-ui/react-dialog";
import { primaryButton, secondaryButton } from "~/ui/styles";

/** A Yes/No confirmation. No (or Esc) closes it and changes nothing. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  onYes,
  busy = false,
  error = "",
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  onYes: () => void;
  busy?: boolean;
  error?: string;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center bg-slate-900/60 p-4">
          <Dialog.Content className="w-full max-w-sm rounded-xl bg-white p-6 shadow-2xl">
            <Dialog.Title className="text-xl font-bold text-slate-900">{title}</Dialog.Title>
            <Dialog.Description className="mt-2 text-slate-700">{description}</Dialog.Description>
            <p role="alert" className="mt-2 min-h-5 text-sm font-medium text-red-700">
              {error}
            </p>
            <div className="mt-4 flex justify-end gap-3">
              <Dialog.Close className={secondaryButton}>No</Dialog.Close>
              <button type="button" className={primaryButton} onClick={onYes} disabled={busy}>
                Yes
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
