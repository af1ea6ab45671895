import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { MessageKind } from "~/db/schema";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { formatDateTime } from "~/dashboard/format";
import { useEventStream } from "~/dashboard/use-event-stream";
import type { RealtimeEvent } from "~/realtime/events";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { LearnerCardView } from "./LearnerCardView";
import { staffClient } from "./staff-client";
import {
  kindLabels,
  staffLevel,
  staffMessages,
  type AuditEntry,
  type LearnerCard,
  type LearnerFilter,
  type LearnerPage,
} from "./staff-types";

const kinds: MessageKind[] = ["notice", "task", "certificate"];

/** How long a success message stays (spec section 9). */
export const SUCCESS_MS = 3000;

type Confirm =
  { type: "bulk"; kind: MessageKind; count: number } | { type: "clear"; kind: MessageKind; learner: LearnerCard };

/** Does a card belong on the current list? The same test the server's search makes. */
function matches(card: LearnerCard, filter: LearnerFilter): boolean {
  if (filter.course && card.course !== filter.course) return false;
  const search = filter.search.trim().toLowerCase();
  return !search || card.username.toLowerCase().includes(search);
}

/**
 * The admin view: search and filter, expandable learner cards, the send panel, bulk send,
 * clearing, offer letters, roles and the audit log. Every action is decided by the server
 * (/api/staff/*); this view only mirrors it. Live through the event stream: new sign-ups and
 * task links update single cards, never the whole list.
 */
export function StaffDashboard({
  role,
  timeZone,
  onUserDashboard,
  logoutButton,
}: {
  role: string;
  timeZone: string;
  onUserDashboard: () => void;
  logoutButton: ReactNode;
}) {
  const isAdmin = staffLevel(role) === "admin";
  const searchId = useId();
  const courseId = useId();
  const [searchText, setSearchText] = useState("");
  const [filter, setFilter] = useState<LearnerFilter>({ search: "", course: "" });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<LearnerPage | null>(null);
  const [courses, setCourses] = useState<string[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [texts, setTexts] = useState<Record<MessageKind, string>>({ notice: "", task: "", certificate: "" });
  const [error, setError] = useState("");
  // `n` makes a repeated message a new one, so its 3 seconds start again.
  const [success, setSuccess] = useState<{ text: string; n: number } | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [confirmError, setConfirmError] = useState("");
  const [busy, setBusy] = useState(false);
  const [auditOpen, setAuditOpen] = useState(false);
  const filterRef = useRef(filter);
  const pageRef = useRef(page);
  const dataRef = useRef(data);
  useEffect(() => {
    filterRef.current = filter;
    pageRef.current = page;
    dataRef.current = data;
  });

  const load = useCallback(async (nextFilter: LearnerFilter, nextPage: number) => {
    const answer = await staffClient.learners(nextFilter, nextPage);
    if (answer.ok) setData(answer.data);
    else setError(answer.message);
  }, []);

  const loadCourses = useCallback(async () => {
    const answer = await staffClient.courses();
    if (answer.ok) setCourses(answer.data.courses);
  }, []);

  useEffect(() => {
    let current = true;
    void staffClient.courses().then((answer) => {
      if (current && answer.ok) setCourses(answer.data.courses);
    });
    return () => {
      current = false;
    };
  }, []);

  // A newer search, filter or page wins: an older answer arriving late is dropped.
  useEffect(() => {
    let current = true;
    void staffClient.learners(filter, page).then((answer) => {
      if (!current) return;
      if (answer.ok) setData(answer.data);
      else setError(answer.message);
    });
    return () => {
      current = false;
    };
  }, [filter, page]);

  // The search runs shortly after typing stops, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      setFilter((f) => (f.search === searchText ? f : { ...f, search: searchText }));
      setPage((p) => (filterRef.current.search === searchText ? p : 1));
    }, 250);
    return () => clearTimeout(timer);
  }, [searchText]);

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [success]);

  const flash = (text: string) => {
    setError("");
    setSuccess((previous) => ({ text, n: (previous?.n ?? 0) + 1 }));
  };
  const fail = (text: string) => {
    setSuccess(null);
    setError(text);
  };

  /** Replaces one card with the server's fresh copy (after a send, a clear, a new link). */
  const refreshCard = useCallback(async (id: string) => {
    const answer = await staffClient.learner(id);
    setData((current) => {
      if (!current) return current;
      if (!answer.ok) {
        // No longer a learner (made staff): it leaves the list.
        if (answer.status !== 404) return current;
        return { ...current, learners: current.learners.filter((l) => l.id !== id), total: current.total - 1 };
      }
      return { ...current, learners: current.learners.map((l) => (l.id === id ? answer.data.learner : l)) };
    });
  }, []);

  const onEvent = useCallback(
    async (event: RealtimeEvent) => {
      if (event.type === "learner-signed-up") {
        const answer = await staffClient.learner(event.learnerId);
        if (!answer.ok) return;
        const card = answer.data.learner;
        setCourses((list) => (card.course && !list.includes(card.course) ? [...list, card.course].sort() : list));
        if (!matches(card, filterRef.current)) return;
        setData((current) => {
          if (!current || current.learners.some((l) => l.id === card.id)) return current;
          const total = current.total + 1;
          const pages = Math.max(1, Math.ceil(total / current.pageSize));
          // Newest first: a new learner belongs at the top of page 1.
          const learners =
            pageRef.current === 1 ? [card, ...current.learners].slice(0, current.pageSize) : current.learners;
          return { ...current, learners, total, pages };
        });
      } else if (event.type === "task-links" && event.learnerId) {
        const id = event.learnerId;
        // Only a card on this page changes; the rest of the list is left alone.
        if (dataRef.current?.learners.some((l) => l.id === id)) void refreshCard(id);
      }
    },
    [refreshCard],
  );
  useEventStream(
    (event) => void onEvent(event),
    () => {
      void load(filterRef.current, pageRef.current);
      void loadCourses();
    },
  );

  const sendOne = async (kind: MessageKind) => {
    if (!selectedId) return fail(staffMessages.selectLearner);
    if (!texts[kind].trim()) return fail(staffMessages.empty(kind));
    setBusy(true);
    const answer = await staffClient.send(selectedId, kind, texts[kind]);
    setBusy(false);
    if (!answer.ok) return fail(answer.message);
    setTexts((t) => ({ ...t, [kind]: "" }));
    flash(answer.data.message);
    void refreshCard(selectedId);
  };

  const askBulk = async (kind: MessageKind) => {
    if (!texts[kind].trim()) return fail(staffMessages.empty(kind));
    const answer = await staffClient.count(filter);
    if (!answer.ok) return fail(answer.message);
    if (answer.data.count === 0) return fail("No learners match the search and filter.");
    setConfirmError("");
    setConfirm({ type: "bulk", kind, count: answer.data.count });
  };

  const confirmYes = async () => {
    if (!confirm) return;
    setBusy(true);
    if (confirm.type === "bulk") {
      const answer = await staffClient.bulkSend(filter, confirm.kind, texts[confirm.kind], confirm.count);
      setBusy(false);
      if (!answer.ok) {
        const changed = /changed to (\d+)/.exec(answer.message);
        if (answer.status === 409 && changed) {
          setConfirm({ ...confirm, count: Number(changed[1]) });
          setConfirmError(answer.message);
          return;
        }
        setConfirm(null);
        return fail(answer.message);
      }
      setConfirm(null);
      setTexts((t) => ({ ...t, [confirm.kind]: "" }));
      flash(answer.data.message);
      void load(filter, page);
    } else {
      const answer = await staffClient.clear(confirm.learner.id, confirm.kind);
      setBusy(false);
      setConfirm(null);
      if (!answer.ok) return fail(answer.message);
      flash(answer.data.message);
      void refreshCard(confirm.learner.id);
    }
  };

  const total = data?.total ?? 0;

  return (
    <main id="main" tabIndex={-1} className="mx-auto min-h-[60vh] max-w-7xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
        <div className="flex flex-wrap gap-3">
          {isAdmin && (
            <button type="button" className={secondaryButton} onClick={() => setAuditOpen(true)}>
              Audit Log
            </button>
          )}
          <button type="button" className={secondaryButton} onClick={onUserDashboard}>
            User DashBoard
          </button>
          {logoutButton}
        </div>
      </div>

      <p role="alert" className="mt-4 min-h-6 font-medium text-red-700">
        {error}
      </p>
      <p role="status" className="min-h-6 font-medium text-green-800">
        {success?.text ?? ""}
      </p>

      <div className="mt-4 grid gap-8 lg:grid-cols-[20rem_1fr]">
        <aside aria-label="Send to learners" className="space-y-5 lg:sticky lg:top-4 lg:self-start">
          <p className="text-sm text-slate-700">
            {selectedId
              ? `Sending to ${data?.learners.find((l) => l.id === selectedId)?.username ?? "the selected learner"}.`
              : "Expand a learner's card to select them."}
          </p>
          {kinds.map((kind) => (
            <div key={kind}>
              <label htmlFor={`${searchId}-${kind}`} className="block font-semibold text-slate-900">
                {kindLabels[kind].title}
              </label>
              <textarea
                id={`${searchId}-${kind}`}
                className="mt-1 h-24 w-full rounded-md border border-slate-400 p-2 text-sm"
                value={texts[kind]}
                onChange={(e) => setTexts((t) => ({ ...t, [kind]: e.target.value }))}
              />
              <div className="mt-2 flex flex-wrap gap-2">
                <button type="button" className={primaryButton} disabled={busy} onClick={() => void sendOne(kind)}>
                  Send {kindLabels[kind].title}
                </button>
                <button type="button" className={secondaryButton} disabled={busy} onClick={() => void askBulk(kind)}>
                  Send to all matching
                  <span className="sr-only"> learners ({kindLabels[kind].singular})</span>
                </button>
              </div>
            </div>
          ))}
        </aside>

        <section aria-labelledby={`${searchId}-learners`}>
          <h2 id={`${searchId}-learners`} className="sr-only">
            Learners
          </h2>
          <div className="flex flex-wrap items-end gap-4">
            <div className="min-w-56 flex-1">
              <label htmlFor={searchId} className="block font-semibold text-slate-900">
                Search by name
              </label>
              <input
                id={searchId}
                type="search"
                className="mt-1 w-full rounded-md border border-slate-400 p-2"
                value={searchText}
                onChange={(e) => setSearchText(e.target.value)}
              />
            </div>
            <div>
              <label htmlFor={courseId} className="block font-semibold text-slate-900">
                Course
              </label>
              <select
                id={courseId}
                className="mt-1 rounded-md border border-slate-400 p-2"
                value={filter.course}
                onChange={(e) => {
                  setFilter((f) => ({ ...f, course: e.target.value }));
                  setPage(1);
                }}
              >
                <option value="">All Courses</option>
                {courses.map((course) => (
                  <option key={course} value={course}>
                    {course}
                  </option>
                ))}
              </select>
            </div>
          </div>

          <p className="mt-4 text-sm text-slate-700" aria-live="polite">
            {data ? `${total} ${total === 1 ? "learner" : "learners"}` : "Loading learners…"}
          </p>
          <ul className="mt-2 space-y-3">
            {data?.learners.map((learner) => (
              <LearnerCardView
                key={learner.id}
                learner={learner}
                selected={learner.id === selectedId}
                isAdmin={isAdmin}
                timeZone={timeZone}
                onToggle={() => setSelectedId((id) => (id === learner.id ? null : learner.id))}
                onClear={(kind) => {
                  setConfirmError("");
                  setConfirm({ type: "clear", kind, learner });
                }}
                onSaved={(message, roleChanged) => {
                  flash(message);
                  if (roleChanged) {
                    setSelectedId(null);
                    void refreshCard(learner.id);
                  }
                }}
                onError={fail}
              />
            ))}
          </ul>
          {data && data.pages > 1 && (
            <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4">
              <button
                type="button"
                className={secondaryButton}
                disabled={data.page <= 1}
                onClick={() => setPage(data.page - 1)}
              >
                Previous
              </button>
              <span className="text-sm text-slate-700">
                Page {data.page} of {data.pages}
              </span>
              <button
                type="button"
                className={secondaryButton}
                disabled={data.page >= data.pages}
                onClick={() => setPage(data.page + 1)}
              >
                Next
              </button>
            </nav>
          )}
        </section>
      </div>

      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={
          confirm?.type === "bulk"
            ? `Send this ${kindLabels[confirm.kind].singular} to all matching learners?`
            : confirm
              ? `Clear ${kindLabels[confirm.kind].plural}?`
              : ""
        }
        description={
          confirm?.type === "bulk"
            ? `${confirm.count} ${confirm.count === 1 ? "learner" : "learners"} will receive it.`
            : confirm
              ? `All ${kindLabels[confirm.kind].plural} of ${confirm.learner.username} will be deleted.`
              : ""
        }
        onYes={() => void confirmYes()}
        busy={busy}
        error={confirmError}
      />
      {isAdmin && <AuditDialog open={auditOpen} onOpenChange={setAuditOpen} timeZone={timeZone} />}
    </main>
  );
}

const actionNames: Record<string, string> = {
  send: "Sent",
  "bulk-send": "Bulk sent",
  clear: "Cleared",
  "offer-letter": "Offer letter",
  "role-change": "Role change",
};

/** The latest 200 staff actions, newest first (admins only). */
function AuditDialog({
  open,
  onOpenChange,
  timeZone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  timeZone: string;
}) {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    if (!open) return;
    let current = true;
    void staffClient.audit().then((answer) => {
      if (!current) return;
      if (answer.ok) setEntries(answer.data.entries);
      else setError(answer.message);
    });
    return () => {
      current = false;
    };
  }, [open]);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center bg-slate-900/60 p-4">
          <Dialog.Content
            className="flex max-h-[85vh] w-full max-w-4xl flex-col rounded-xl bg-white shadow-2xl"
            aria-describedby={undefined}
          >
            <div className="flex items-center justify-between border-b border-slate-200 px-6 py-4">
              <Dialog.Title className="text-xl font-bold text-slate-900">Audit Log</Dialog.Title>
              <Dialog.Close className="rounded-md px-3 py-1.5 text-sm font-semibold text-slate-700 hover:bg-slate-100">
                Close
              </Dialog.Close>
            </div>
            <div className="overflow-y-auto px-6 py-4">
              {error ? (
                <p role="alert" className="text-sm font-medium text-red-700">
                  {error}
                </p>
              ) : !entries ? (
                <p className="text-slate-700">Loading…</p>
              ) : entries.length === 0 ? (
                <p className="text-slate-700">No staff actions yet.</p>
              ) : (
                <table className="w-full text-left text-sm">
                  <thead>
                    <tr className="border-b border-slate-200">
                      <th className="py-2 pr-4">When</th>
                      <th className="py-2 pr-4">Who</th>
                      <th className="py-2 pr-4">What</th>
                      <th className="py-2 pr-4">To whom</th>
                      <th className="py-2">Count</th>
                    </tr>
                  </thead>
                  <tbody>
                    {entries.map((entry) => (
                      <tr key={entry.id} className="border-b border-slate-100">
                        <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(entry.createdAt, timeZone)}</td>
                        <td className="py-2 pr-4">{entry.actorName}</td>
                        <td className="py-2 pr-4">
                          {actionNames[entry.action] ?? entry.action}
                          {entry.detail ? ` (${entry.detail})` : ""}
                        </td>
                        <td className="py-2 pr-4">{entry.target}</td>
                        <td className="py-2">{entry.count}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
