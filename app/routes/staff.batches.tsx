import type { Route } from "./+types/staff.batches";
import { BatchesPage } from "~/placement/BatchesPage";
import { loadBatches } from "~/placement/board-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Batches and fee terms");

export async function loader({ request }: Route.LoaderArgs) {
  return loadBatches(request);
}

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function BatchesRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <BatchesPage data={loaderData} />
    </SignedInShell>
  );
}
