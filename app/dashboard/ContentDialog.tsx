import * as Dialog from "@radix-ui/react-dialog";
import { useNavigation } from "react-router";
import { messageBody } from "~/ui/styles";
import { formatDateTime } from "~/core/dates";

export interface ContentItem {
  id: string;
  /** HTML sanitized by the server's allow-list when it was stored. */
  html: string;
  date: string;
  /** The sender's name; null for one whose account is gone. */
  sentBy: string | null;
  /** Unread when the popup showed it: labelled "New". */
  isNew: boolean;
}

/**
 * A popup of one kind of content (tasks, certificates, the offer letter, notices), newest first,
 * each with its sender and date, new ones labelled. Close button and Esc close it; focus stays
 * inside while it is open. A long list or text scrolls inside, under the title and Close.
 */
export function ContentDialog({
  open,
  onOpenChange,
  title,
  empty,
  items,
  timeZone,
  onShowOlder,
  documents,
  documentCount = 0,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  empty: string;
  items: ContentItem[];
  timeZone: string;
  /** Loads the next, older page; absent when there is none. */
  onShowOlder?: () => void;
  /** The popup's PDF documents (certificates, offer letters), listed before the texts. */
  documents?: React.ReactNode;
  documentCount?: number;
  /**
   * What gets focus back when the popup closes (the button that opened it). The popup opens once
   * its page has loaded, so what had focus then is not always what opened it.
   */
  returnFocusTo?: () => HTMLElement | null;
}) {
  // The items come with the page's data: while it loads (opening, "Show older"), say so.
  const loading = useNavigation().state === "loading";
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center bg-slate-900/60 p-4">
          <Dialog.Content
            onCloseAutoFocus={(event) => {
              const opener = returnFocusTo?.();
              if (!opener) return;
              event.preventDefault();
              opener.focus();
            }}
            className="flex max-h-[85dvh] w-full max-w-2xl min-w-0 flex-col rounded-xl bg-white shadow-2xl"
            aria-describedby={undefined}
          >
            <div className="flex shrink-0 items-center justify-between gap-4 border-b border-slate-200 px-4 py-4 sm:px-6">
              <Dialog.Title className="text-xl font-bold text-slate-900">{title}</Dialog.Title>
              <Dialog.Close
                className="rounded-md px-3 py-1.5 text-sm font-semibold text-slate-700 hover:bg-slate-100"
                aria-label={`Close ${title}`}
              >
                Close
              </Dialog.Close>
            </div>
            {/* Focusable, so that the keyboard scrolls a long list or text too. */}
            <div
              className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-4 py-4 sm:px-6"
              role="region"
              aria-label={title}
              tabIndex={0}
              aria-live="polite"
              aria-busy={loading}
              data-testid="popup-body"
            >
              {documents}
              {items.length === 0 ? (
                documentCount === 0 && <p className="text-slate-700">{loading ? "Loading…" : empty}</p>
              ) : (
                <ol className="space-y-4">
                  {items.map((item) => (
                    <li
                      key={item.id}
                      className={`rounded-lg border p-4 ${item.isNew ? "border-blue-800 border-l-4" : "border-slate-200"}`}
                    >
                      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
                        {item.isNew && (
                          <span className="rounded bg-blue-800 px-1.5 py-0.5 text-xs font-bold tracking-wide text-white uppercase">
                            New
                          </span>
                        )}
                        <span>
                          From{" "}
                          <span className="font-semibold text-slate-900">{item.sentBy ?? "a former staff member"}</span>
                          {", "}
                          <time dateTime={item.date}>{formatDateTime(item.date, timeZone)}</time>
                        </span>
                      </p>
                      <div className={`mt-2 ${messageBody}`} dangerouslySetInnerHTML={{ __html: item.html }} />
                    </li>
                  ))}
                </ol>
              )}
              {onShowOlder && items.length > 0 && (
                <button
                  type="button"
                  onClick={onShowOlder}
                  disabled={loading}
                  className="mt-4 rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60"
                >
                  {loading ? "Loading…" : "Show older"}
                </button>
              )}
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
