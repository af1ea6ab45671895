import type { Route } from "./+types/staff.placement";
import { loadBoard } from "~/placement/board-page.server";
import { PlacementBoard } from "~/placement/PlacementBoard";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Placement board");

export async function loader({ request }: Route.LoaderArgs) {
  return loadBoard(request);
}

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function PlacementBoardRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <PlacementBoard data={loaderData} />
    </SignedInShell>
  );
}
