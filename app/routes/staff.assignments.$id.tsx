import type { Route } from "./+types/staff.assignments.$id";
import { AssignmentPage } from "~/assignments/AssignmentPage";
import { loadAssignmentPage } from "~/assignments/reviews-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Assignment");

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadAssignmentPage(request, params.id);
}

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function AssignmentRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <AssignmentPage data={loaderData} />
    </SignedInShell>
  );
}
