import { useState } from "react";
import { useSearchParams } from "react-router";
import { LearnerDashboard } from "~/dashboard/LearnerDashboard";
import type { LearnerState } from "~/learners/learner-state";
import { StaffDashboard } from "~/staff/StaffDashboard";
import { secondaryButton } from "~/ui/styles";
import { LogoutButton } from "./LogoutButton";
import { useLiveSession } from "./use-live-session";

export interface SignedInUser {
  username: string;
  /** Null for learners. Any value shows the Admin button (spec section 6). */
  role: string | null;
}

/**
 * What / and /dashboard show to a signed-in user. The learner and admin dashboards build on
 * this: the greeting, the role-dependent Admin button and Logout.
 */
export function SignedInHome({ user, learner }: { user: SignedInUser; learner?: LearnerState | null }) {
  useLiveSession();
  // `?view=admin` opens the admin view directly (a reload keeps it; links can point at it).
  const [params] = useSearchParams();
  const [view, setView] = useState<"learner" | "admin">(params.get("view") === "admin" ? "admin" : "learner");
  const admin = view === "admin" && Boolean(user.role);

  // The learner view is the learner dashboard (issue 4), with this view's Admin switch and Logout.
  if (!admin) {
    return (
      <LearnerDashboard
        initial={learner ?? null}
        adminButton={
          user.role && (
            <button type="button" className={secondaryButton} onClick={() => setView("admin")}>
              Admin
            </button>
          )
        }
        logoutButton={<LogoutButton />}
      />
    );
  }

  // The admin view (issue 5): its data comes from /api/staff/*, which refuses learners.
  return (
    <StaffDashboard
      role={user.role ?? ""}
      timeZone={learner?.timeZone ?? "Asia/Kolkata"}
      onUserDashboard={() => setView("learner")}
      logoutButton={<LogoutButton />}
    />
  );
}
