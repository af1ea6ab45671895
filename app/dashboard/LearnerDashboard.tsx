import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { LearnerDocuments } from "~/documents/DocumentCards";
import { secondaryButton } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { ContentDialog } from "./ContentDialog";
import { LearnerAssignments } from "~/assignments/LearnerAssignments";
import type { DashboardData } from "./dashboard-page.server";
import { popupFor, popups } from "./popups";
import { ProfilePhoto } from "./ProfilePhoto";
import { LearnerHome } from "./LearnerHome";
import { DataRights } from "./DataRights";
import { PlacementPanel } from "./PlacementPanel";
import { EmailSettings } from "./EmailSettings";
import { ProfileSettings } from "./ProfileSettings";
import { ResumePanel } from "./ResumePanel";
import { TaskLinksPanel } from "./TaskLinksPanel";

/**
 * The learner dashboard: greeting and Day N, profile picture, the content buttons with their
 * unread counts, the resume and task-link panels. The open popup is in the URL (`?show=`), so
 * Back closes it and a link opens it; live events make the loader run again.
 */
export function LearnerDashboard({ data }: { data: DashboardData }) {
  const { learner: state, popup: content, user } = data;
  const [params, setParams] = useSearchParams();
  const active = popupFor(params.get("show"));
  const markRead = useAction();

  // What a popup shows is read: its unread items are marked read, and nothing it did not show
  // (older pages, another kind). Items arriving while it is open are shown, so read too.
  const unreadShown = active && content ? content.items.filter((item) => !item.read).map((item) => item.id) : [];
  const unreadShownKey = active ? `${active.id} ${unreadShown.join(" ")}` : "";
  useEffect(() => {
    if (!active || unreadShown.length === 0) return;
    markRead.submit({ intent: "mark-read", kind: active.id, ids: unreadShown.join(" ") }, { inline: true });
    // Submitted once per set of unread items shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unreadShownKey]);

  // Items unread when the popup showed them keep their "New" label while it stays open, though
  // they are read by then; closing it forgets them.
  const [newItems, setNewItems] = useState<{ show: string | undefined; ids: ReadonlySet<string> }>({
    show: undefined,
    ids: new Set(),
  });
  if (newItems.show !== active?.show || unreadShown.some((id) => !newItems.ids.has(id))) {
    const kept = newItems.show === active?.show ? [...newItems.ids] : [];
    setNewItems({ show: active?.show, ids: new Set([...kept, ...unreadShown]) });
  }

  // Arriving from a password reset (`?changed=password`): say so once, and drop it from the address.
  const toast = useToast();
  const changedPassword = params.get("changed") === "password";
  useEffect(() => {
    if (!changedPassword) return;
    toast.success("Your password has been changed.");
    const next = new URLSearchParams(params);
    next.delete("changed");
    setParams(next, { replace: true, preventScrollReset: true });
    // Once per arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [changedPassword]);

  const opener = usePopupOpener(active?.show);
  const show = (value: string | null) => {
    if (value) opener.remember();
    const next = new URLSearchParams(params);
    next.delete("pages");
    if (value) next.set("show", value);
    else next.delete("show");
    setParams(next, { preventScrollReset: true, replace: value === null });
  };

  return (
    <>
      <div className="flex flex-wrap items-center gap-6">
        <ProfilePhoto photoUrl={state.photoUrl} username={state.username} />
        <div>
          <h1 className="text-3xl font-bold text-slate-900">{`Welcome ${state.username}!`}</h1>
          <p className="mt-1 text-lg font-semibold text-blue-800" data-testid="day-counter">{`Day ${state.day}`}</p>
          {state.profile.course && <p className="mt-1 text-slate-700">{`Course: ${state.profile.course}`}</p>}
          <Link to="/placement" className="mt-1 inline-block font-semibold text-blue-800 underline">
            My placement: applications, offers, agreement and fees
          </Link>
        </div>
      </div>

      <PopupButtons unread={state.unread} isStaff={user.level !== "learner"} onShow={show} />

      <LearnerHome home={data.home} timeZone={state.timeZone} onShow={show} />

      <PlacementPanel placement={data.placement} timeZone={state.timeZone} />

      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <ResumePanel resume={state.resume} maxMb={state.resumeMaxMb} timeZone={state.timeZone} />
        <TaskLinksPanel taskLinks={state.taskLinks} timeZone={state.timeZone} username={user.username} />
      </div>
      <ProfileSettings profile={state.profile} courseOptions={state.courseOptions} />
      <EmailSettings preferences={state.emailPreferences} digestHour={state.digestHour} />
      <DataRights />

      <ContentDialog
        open={active !== undefined}
        onOpenChange={(next) => !next && show(null)}
        returnFocusTo={opener.returnFocusTo}
        title={active?.title ?? ""}
        empty={active?.empty ?? ""}
        items={(content?.items ?? []).map((item) => ({ ...item, isNew: !item.read || newItems.ids.has(item.id) }))}
        timeZone={state.timeZone}
        documents={
          content && (
            <>
              <LearnerAssignments
                assignments={content.assignments ?? []}
                timeZone={state.timeZone}
                maxMb={content.assignmentMaxMb}
              />
              <LearnerDocuments documents={content.documents} today={content.today} appUrl={content.appUrl} />
            </>
          )
        }
        documentCount={(content?.documents.length ?? 0) + (content?.assignments?.length ?? 0)}
        onShowOlder={
          content?.more
            ? () => {
                const next = new URLSearchParams(params);
                next.set("pages", String(content.pages + 1));
                setParams(next, { preventScrollReset: true, replace: true });
              }
            : undefined
        }
      />
    </>
  );
}

/**
 * What opened the popup shown, for focus to go back to when it closes: the element that had
 * focus when it was asked for, or (opened from the address) the popup's own button.
 */
function usePopupOpener(shown: string | undefined) {
  const opener = useRef<HTMLElement | null>(null);
  /** The popup shown last: it has closed by the time focus goes back. */
  const lastShown = useRef<string | null>(null);
  useEffect(() => {
    if (shown) lastShown.current = shown;
  }, [shown]);
  return {
    remember() {
      if (document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
    },
    returnFocusTo(): HTMLElement | null {
      if (opener.current?.isConnected) return opener.current;
      const last = lastShown.current;
      return last ? document.querySelector<HTMLElement>(`button[name="show"][value="${last}"]`) : null;
    },
  };
}

/** The popups' buttons with their unread counts, and staff's way to the workspace. */
function PopupButtons({
  unread,
  isStaff,
  onShow,
}: {
  unread: DashboardData["learner"]["unread"];
  isStaff: boolean;
  onShow: (show: string) => void;
}) {
  const navigate = useNavigate();
  return (
    <nav aria-label="Dashboard">
      {/* A plain GET form: a tap before the page's script has loaded still opens the popup. */}
      <form method="get" className="mt-6 flex flex-wrap gap-3">
        {popups.map((popup) => (
          <button
            key={popup.id}
            type="submit"
            name="show"
            value={popup.show}
            className={secondaryButton}
            onClick={(event) => {
              event.preventDefault();
              onShow(popup.show);
            }}
          >
            {popup.label}
            {/* The count is read out with the name ("Tasks 2 unread"), not shown by colour alone. */}
            <span
              data-testid={`unread-badge-${popup.id}`}
              className={`ml-2 inline-flex min-w-6 items-center justify-center rounded-full px-1.5 text-sm font-bold ${
                unread[popup.id] > 0 ? "bg-red-700 text-white" : "bg-slate-200 text-slate-800"
              }`}
            >
              {unread[popup.id]}
            </span>
            <span className="sr-only"> unread</span>
          </button>
        ))}
        {isStaff && (
          <button type="button" className={secondaryButton} onClick={() => void navigate("/staff")}>
            Admin
          </button>
        )}
      </form>
    </nav>
  );
}
