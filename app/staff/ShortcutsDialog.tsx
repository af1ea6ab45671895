import * as Dialog from "@radix-ui/react-dialog";
import { useRef } from "react";
import { secondaryButton } from "~/ui/styles";
import { workspaceShortcuts } from "./use-workspace-keys";

/** The workspace's keys, listed (`?` or its button opens it; focus goes back where it was). */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className="rounded-md px-2 py-1 text-sm font-semibold text-blue-800 underline hover:bg-blue-50">
        Keyboard shortcuts
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center bg-slate-900/60 p-4">
          <Dialog.Content
            // Opened by `?` from anywhere: focus goes back there, not to this dialog's button.
            onOpenAutoFocus={() => {
              opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            }}
            onCloseAutoFocus={(event) => {
              if (!opener.current?.isConnected) return;
              event.preventDefault();
              opener.current.focus();
            }}
            className="w-full max-w-sm rounded-xl bg-white p-6 shadow-2xl"
          >
            <Dialog.Title className="text-xl font-bold text-slate-900">Keyboard shortcuts</Dialog.Title>
            <Dialog.Description className="mt-2 text-sm text-slate-700">
              Not while typing in a field.
            </Dialog.Description>
            <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              {workspaceShortcuts.map(([key, what]) => (
                <div key={key} className="contents">
                  <dt>
                    <kbd className="rounded border border-slate-400 bg-slate-50 px-1.5 py-0.5 font-mono">{key}</kbd>
                  </dt>
                  <dd className="text-slate-900">{what}</dd>
                </div>
              ))}
            </dl>
            <div className="mt-6 flex justify-end">
              <Dialog.Close className={secondaryButton}>Close</Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
