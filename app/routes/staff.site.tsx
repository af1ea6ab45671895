import type { Route } from "./+types/staff.site";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { SiteAdminPage } from "~/site/SiteAdminPage";
import { loadSiteAdminPage, siteAdminAction } from "~/site/site-admin-page.server";
import { signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Public site");

export async function loader({ request }: Route.LoaderArgs) {
  return loadSiteAdminPage(request);
}

export async function action({ request }: Route.ActionArgs) {
  return siteAdminAction(request);
}

export default function SiteAdminRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <SiteAdminPage data={loaderData} />
    </SignedInShell>
  );
}
