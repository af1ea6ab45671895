import type { Route } from "./+types/staff";
import { revalidateUnlessPreview } from "~/staff/ComposePanel";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { StaffWorkspace } from "~/staff/StaffWorkspace";
import { loadStaffWorkspace, staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Admin Dashboard");

export async function loader({ request }: Route.LoaderArgs) {
  return loadStaffWorkspace(request);
}

export const shouldRevalidate = revalidateUnlessPreview;

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function StaffPage({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <StaffWorkspace data={loaderData} />
    </SignedInShell>
  );
}
