import * as Dialog from "@radix-ui/react-dialog";
import { useRef } from "react";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { SendResultLine, type SendResult } from "./ComposePanel";

/**
 * Composing on a phone: a bar at the bottom says who a send would reach, and Write opens the
 * composer as a sheet over the list.
 */
export function ComposeSheet({
  open,
  onOpenChange,
  openLearner,
  tickedCount,
  result,
  closedBySend,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  openLearner: string | null;
  tickedCount: number;
  /** What the last send answered: shown on the bar, and focused once the sheet closes after a send. */
  result: SendResult | null;
  /** The sheet was closed by a send made in it. */
  closedBySend: boolean;
  children: React.ReactNode;
}) {
  const resultLine = useRef<HTMLParagraphElement>(null);
  return (
    <div
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white p-3 shadow-lg lg:hidden"
      // Go to Top sits above this bar.
      data-bottom-bar
    >
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-3">
        <div className="min-w-0">
          <SendResultLine ref={resultLine} result={result} />
          <p className="text-sm text-slate-700">{composeSummary(openLearner, tickedCount)}</p>
        </div>
        <Dialog.Root open={open} onOpenChange={onOpenChange}>
          <Dialog.Trigger className={primaryButton}>Write</Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
            <Dialog.Content
              onOpenAutoFocus={(event) => {
                // Opened to write: the text area, not the Close button.
                const text =
                  event.currentTarget instanceof HTMLElement && event.currentTarget.querySelector("textarea");
                if (!text) return;
                event.preventDefault();
                text.focus();
              }}
              onCloseAutoFocus={(event) => {
                // Closed by a send: focus goes to what it answered, not back to Write.
                if (!closedBySend) return;
                event.preventDefault();
                resultLine.current?.focus();
              }}
              className="fixed inset-x-0 bottom-0 z-50 max-h-[88vh] overflow-y-auto rounded-t-2xl bg-white p-4 pb-8 shadow-2xl"
            >
              <div className="mb-4 flex items-center justify-between gap-3">
                <Dialog.Title className="text-xl font-bold text-slate-900">Send to learners</Dialog.Title>
                <Dialog.Close className={secondaryButton}>Close</Dialog.Close>
              </div>
              <Dialog.Description className="sr-only">
                Write a notice, task or certificate and choose who receives it.
              </Dialog.Description>
              {children}
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      </div>
    </div>
  );
}

/** Who a send would reach, in words. */
function composeSummary(openLearner: string | null, tickedCount: number): string {
  if (tickedCount > 0) return `${tickedCount} selected${openLearner ? `; card open: ${openLearner}` : ""}`;
  if (openLearner) return `Card open: ${openLearner}`;
  return "Open a card or tick learners to send.";
}
