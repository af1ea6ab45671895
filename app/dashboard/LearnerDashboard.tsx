import { useEffect } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { secondaryButton } from "~/ui/styles";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { ContentDialog } from "./ContentDialog";
import type { DashboardData } from "./dashboard-page.server";
import { popupFor, popups } from "./popups";
import { ProfilePhoto } from "./ProfilePhoto";
import { ProfileSettings } from "./ProfileSettings";
import { ResumePanel } from "./ResumePanel";
import { TaskLinksPanel } from "./TaskLinksPanel";

/**
 * The learner dashboard: greeting and Day N, profile picture, the content buttons with the
 * unread badge, the resume and task-link panels. The open popup is in the URL (`?show=`), so
 * Back closes it and a link opens it; live events make the loader run again.
 */
export function LearnerDashboard({ data }: { data: DashboardData }) {
  const { learner: state, popup: content, user } = data;
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const active = popupFor(params.get("show"));
  const markRead = useAction();

  // Opening the notifications reads them: the badge goes to 0 once they are on screen.
  const unreadShown = active?.id === "notice" && content?.items.some((item) => !item.read);
  useEffect(() => {
    if (unreadShown && !markRead.busy) markRead.submit({ intent: "mark-notices-read" }, { inline: true });
    // Submitted once per set of unread notices shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unreadShown]);

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

  const show = (value: string | null) => {
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
        </div>
      </div>

      <nav aria-label="Dashboard" className="mt-6 flex flex-wrap gap-3">
        {popups.map((popup) => (
          <button key={popup.id} type="button" className={secondaryButton} onClick={() => show(popup.show)}>
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
        {user.level !== "learner" && (
          <button type="button" className={secondaryButton} onClick={() => void navigate("/staff")}>
            Admin
          </button>
        )}
      </nav>

      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <ResumePanel resume={state.resume} maxMb={state.resumeMaxMb} timeZone={state.timeZone} />
        <TaskLinksPanel taskLinks={state.taskLinks} timeZone={state.timeZone} />
      </div>
      <ProfileSettings profile={state.profile} />

      <ContentDialog
        open={active !== undefined}
        onOpenChange={(next) => !next && show(null)}
        title={active?.title ?? ""}
        empty={active?.empty ?? ""}
        items={content?.items ?? []}
        timeZone={state.timeZone}
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
