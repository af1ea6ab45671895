import type { Route } from "./+types/placement";
import { MyPlacementPage } from "~/placement/MyPlacementPage";
import { loadMyPlacement, myPlacementAction } from "~/placement/placement-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "My placement");

export async function loader({ request }: Route.LoaderArgs) {
  return loadMyPlacement(request);
}

export async function action({ request }: Route.ActionArgs) {
  return myPlacementAction(request);
}

export default function MyPlacementRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <MyPlacementPage data={loaderData} />
    </SignedInShell>
  );
}
