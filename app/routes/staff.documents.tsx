import type { Route } from "./+types/staff.documents";
import { DocumentSettingsPage } from "~/documents/DocumentSettingsPage";
import { documentSettingsAction, loadDocumentSettingsPage } from "~/documents/settings-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Document settings");

export async function loader({ request }: Route.LoaderArgs) {
  return loadDocumentSettingsPage(request);
}

export async function action({ request }: Route.ActionArgs) {
  return documentSettingsAction(request);
}

export default function DocumentSettingsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <DocumentSettingsPage data={loaderData} />
    </SignedInShell>
  );
}
