import type { Route } from "./+types/staff.batches.$id";
import { BatchPage } from "~/batches/BatchPage";
import { loadBatch } from "~/batches/batch-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Batch");

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadBatch(request, params.id);
}

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function BatchRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <BatchPage data={loaderData} />
    </SignedInShell>
  );
}
