import type { Route } from "./+types/staff.outcomes";
import { loadStaffOutcomes } from "~/placement/outcomes-page.server";
import { StaffOutcomesPage } from "~/placement/StaffOutcomesPage";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Placement outcomes");

export async function loader({ request }: Route.LoaderArgs) {
  return loadStaffOutcomes(request);
}

export default function StaffOutcomesRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <StaffOutcomesPage report={loaderData.report} />
    </SignedInShell>
  );
}
