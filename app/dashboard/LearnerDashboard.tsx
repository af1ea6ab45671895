import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import type { LearnerState, MessageKindName } from "~/learners/learner-state";
import type { RealtimeEvent } from "~/realtime/events";
import { secondaryButton } from "~/ui/styles";
import { ContentDialog, type ContentItem } from "./ContentDialog";
import { learnerClient } from "./learner-client";
import { ProfilePhoto } from "./ProfilePhoto";
import { ResumePanel } from "./ResumePanel";
import { TaskLinksPanel } from "./TaskLinksPanel";
import { useEventStream } from "./use-event-stream";

type Popup = MessageKindName | "offer";

const popups: { id: Popup; label: string; title: string; empty: string }[] = [
  { id: "task", label: "Tasks", title: "Tasks", empty: "No tasks yet." },
  { id: "certificate", label: "Training Certificate", title: "Training Certificates", empty: "No certificates yet." },
  { id: "offer", label: "Offer letter", title: "Offer letter", empty: "No offer letter yet." },
  { id: "notice", label: "Notification", title: "Notifications", empty: "No notices yet." },
];

interface PopupContent {
  items: ContentItem[];
  /** Where the next, older page starts; null when everything is shown. */
  older: string | null;
  loading: boolean;
  error: string;
}

/**
 * The learner dashboard: greeting and Day N, profile picture, the content buttons with the
 * unread badge, the resume and task-link panels. It stays live through the event stream: staff
 * messages raise the badge and refresh an open popup without a reload.
 */
export function LearnerDashboard({
  initial,
  adminButton,
  logoutButton,
}: {
  /** The server's render of the state; without it the state is fetched on mount. */
  initial: LearnerState | null;
  /** Shown only when the user has a role (the view switch lives with the caller). */
  adminButton?: ReactNode;
  logoutButton: ReactNode;
}) {
  const [state, setState] = useState<LearnerState | null>(initial);
  const [loadError, setLoadError] = useState("");
  const [open, setOpen] = useState<Popup | null>(null);
  const [content, setContent] = useState<PopupContent>({ items: [], older: null, loading: false, error: "" });
  const openRef = useRef<Popup | null>(null);

  const refresh = useCallback(async () => {
    const answer = await learnerClient.state();
    if (answer.ok) {
      setState(answer.data);
      setLoadError("");
    } else {
      setLoadError(answer.message);
    }
  }, []);

  // Without a server render (a caller that passes none), fetch the state once.
  useEffect(() => {
    if (initial) return;
    let cancelled = false;
    void learnerClient.state().then((answer) => {
      if (cancelled) return;
      if (answer.ok) setState(answer.data);
      else setLoadError(answer.message);
    });
    return () => {
      cancelled = true;
    };
  }, [initial]);

  const load = useCallback(async (popup: Popup, before?: string) => {
    setContent((c) => ({ ...c, loading: true, error: "" }));
    let items: ContentItem[] = [];
    let older: string | null = null;
    let error = "";
    if (popup === "offer") {
      const answer = await learnerClient.offerLetter();
      if (answer.ok) {
        const letter = answer.data.offerLetter;
        items = letter ? [{ id: "offer-letter", html: letter.html, date: letter.updatedAt }] : [];
      } else error = answer.message;
    } else {
      const answer = await learnerClient.messages(popup, before);
      if (answer.ok) {
        items = answer.data.messages.map((m) => ({ id: m.id, html: m.html, date: m.sentAt }));
        older = answer.data.older;
      } else error = answer.message;
      if (popup === "notice" && answer.ok && answer.data.messages.some((m) => !m.read)) {
        const read = await learnerClient.markNoticesRead();
        if (read.ok) setState((s) => (s ? { ...s, unreadNotices: 0 } : s));
      }
    }
    // A popup closed or switched meanwhile keeps what it has.
    if (openRef.current === popup) {
      setContent((c) => ({ items: before ? [...c.items, ...items] : items, older, loading: false, error }));
    }
  }, []);

  const show = (popup: Popup | null) => {
    openRef.current = popup;
    setOpen(popup);
    setContent({ items: [], older: null, loading: popup !== null, error: "" });
    if (popup) void load(popup);
  };

  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      const current = openRef.current;
      if (event.type === "messages") {
        void refresh();
        if (current === event.kind) void load(current);
      } else if (event.type === "offer-letter") {
        if (current === "offer") void load(current);
      } else {
        void refresh();
      }
    },
    [load, refresh],
  );
  const onReconnect = useCallback(() => {
    void refresh();
    if (openRef.current) void load(openRef.current);
  }, [load, refresh]);
  const live = useEventStream(onEvent, onReconnect);

  if (!state) {
    return (
      <main id="main" tabIndex={-1} className="mx-auto min-h-[60vh] max-w-5xl px-4 py-10">
        <p role={loadError ? "alert" : "status"} className={loadError ? "text-red-700" : "text-slate-700"}>
          {loadError || "Loading your dashboard…"}
        </p>
      </main>
    );
  }

  const active = popups.find((p) => p.id === open);
  return (
    <main
      id="main"
      tabIndex={-1}
      className="mx-auto min-h-[60vh] max-w-5xl px-4 py-10"
      data-live={live ? "connected" : "connecting"}
    >
      <div className="flex flex-wrap items-center gap-6">
        <ProfilePhoto
          photoUrl={state.photoUrl}
          username={state.username}
          onChanged={(photoUrl) => setState((s) => (s ? { ...s, photoUrl } : s))}
        />
        <div>
          <h1 className="text-3xl font-bold text-slate-900">{`Welcome ${state.username}!`}</h1>
          <p className="mt-1 text-lg font-semibold text-blue-800" data-testid="day-counter">{`Day ${state.day}`}</p>
        </div>
      </div>

      <nav aria-label="Dashboard" className="mt-6 flex flex-wrap gap-3">
        {popups.map((popup) => (
          <button key={popup.id} type="button" className={secondaryButton} onClick={() => show(popup.id)}>
            {popup.label}
            {popup.id === "notice" && (
              <>
                <span
                  aria-hidden="true"
                  data-testid="unread-badge"
                  className={`ml-2 inline-flex min-w-6 items-center justify-center rounded-full px-1.5 text-sm font-bold ${
                    state.unreadNotices > 0 ? "bg-red-700 text-white" : "bg-slate-200 text-slate-800"
                  }`}
                >
                  {state.unreadNotices}
                </span>
                <span className="sr-only">{`, ${state.unreadNotices} unread`}</span>
              </>
            )}
          </button>
        ))}
        {state.isStaff && adminButton}
        {logoutButton}
      </nav>
      {loadError && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          {loadError}
        </p>
      )}

      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <ResumePanel
          resume={state.resume}
          maxMb={state.resumeMaxMb}
          timeZone={state.timeZone}
          onChanged={() => void refresh()}
        />
        <TaskLinksPanel taskLinks={state.taskLinks} timeZone={state.timeZone} onChanged={() => void refresh()} />
      </div>

      <ContentDialog
        open={active !== undefined}
        onOpenChange={(next) => !next && show(null)}
        title={active?.title ?? ""}
        empty={active?.empty ?? ""}
        items={content.items}
        loading={content.loading}
        error={content.error}
        timeZone={state.timeZone}
        onShowOlder={open && open !== "offer" && content.older ? () => void load(open, content.older!) : undefined}
      />
    </main>
  );
}
