import type { Route } from "./+types/staff.courses";
import { CatalogueEditor } from "~/catalogue/CatalogueEditor";
import { catalogueAction, loadCataloguePage } from "~/catalogue/catalogue-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Courses");

export async function loader({ request }: Route.LoaderArgs) {
  return loadCataloguePage(request);
}

export async function action({ request }: Route.ActionArgs) {
  return catalogueAction(request);
}

export default function CoursesRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <CatalogueEditor data={loaderData} />
    </SignedInShell>
  );
}
