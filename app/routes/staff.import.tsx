import type { Route } from "./+types/staff.import";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { ImportPage } from "~/staff/ImportPage";
import { importAction, loadImportPage } from "~/staff/import-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Import learners");

export async function loader({ request }: Route.LoaderArgs) {
  return loadImportPage(request);
}

export async function action({ request }: Route.ActionArgs) {
  return importAction(request);
}

export default function ImportRoute({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <ImportPage data={loaderData} problem={actionData?.message} />
    </SignedInShell>
  );
}
