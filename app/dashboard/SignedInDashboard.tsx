import { SignedInShell } from "~/signed-in/SignedInShell";
import type { DashboardData } from "./dashboard-page.server";
import { LearnerDashboard } from "./LearnerDashboard";

/** The learner dashboard in the signed-in shell (/ and /dashboard). */
export default function SignedInDashboard({ data }: { data: DashboardData }) {
  return (
    <SignedInShell level={data.user.level}>
      <LearnerDashboard data={data} />
    </SignedInShell>
  );
}
