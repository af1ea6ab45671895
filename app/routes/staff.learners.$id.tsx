import type { Route } from "./+types/staff.learners.$id";
import { revalidateUnlessPreview } from "~/staff/ComposePanel";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { LearnerPage } from "~/staff/LearnerPage";
import { loadLearnerPage, staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  signedInMeta(matches, loaderData?.learner.username ?? "Learner");

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadLearnerPage(request, params.id);
}

export const shouldRevalidate = revalidateUnlessPreview;

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function LearnerRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <LearnerPage data={loaderData} />
    </SignedInShell>
  );
}
