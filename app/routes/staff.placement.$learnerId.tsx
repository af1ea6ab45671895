import type { Route } from "./+types/staff.placement.$learnerId";
import { loadLearnerPlacementForStaff } from "~/placement/placement-page.server";
import { StaffLearnerPlacementPage } from "~/placement/StaffLearnerPlacementPage";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  signedInMeta(matches, loaderData ? `Placement: ${loaderData.learner.name}` : "Placement");

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadLearnerPlacementForStaff(request, params.learnerId);
}

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function StaffLearnerPlacementRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <StaffLearnerPlacementPage data={loaderData} />
    </SignedInShell>
  );
}
