import type { Route } from "./+types/staff.people";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { PeoplePage } from "~/staff/PeoplePage";
import { loadPeople, staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "People and roles");

export async function loader({ request }: Route.LoaderArgs) {
  return loadPeople(request);
}

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function PeopleRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <PeoplePage data={loaderData} />
    </SignedInShell>
  );
}
