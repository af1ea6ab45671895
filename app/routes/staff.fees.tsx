import type { Route } from "./+types/staff.fees";
import { FeesPage } from "~/placement/FeesPage";
import { loadStaffFees } from "~/placement/outcomes-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Fees receivable");

export async function loader({ request }: Route.LoaderArgs) {
  return loadStaffFees(request);
}

export default function StaffFeesRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <FeesPage receivables={loaderData.receivables} />
    </SignedInShell>
  );
}
