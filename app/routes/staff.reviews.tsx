import type { Route } from "./+types/staff.reviews";
import { ReviewsPage } from "~/assignments/ReviewsPage";
import { loadReviews } from "~/assignments/reviews-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Reviews");

export async function loader({ request }: Route.LoaderArgs) {
  return loadReviews(request);
}

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function ReviewsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <ReviewsPage data={loaderData} />
    </SignedInShell>
  );
}
