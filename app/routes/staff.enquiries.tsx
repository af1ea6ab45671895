import type { Route } from "./+types/staff.enquiries";
import { EnquiriesPage } from "~/enquiries/EnquiriesPage";
import { loadEnquiryInbox } from "~/enquiries/inbox-page.server";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { staffAction } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Enquiries");

export async function loader({ request }: Route.LoaderArgs) {
  return loadEnquiryInbox(request);
}

export async function action({ request }: Route.ActionArgs) {
  return staffAction(request);
}

export default function EnquiriesRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <EnquiriesPage data={loaderData} />
    </SignedInShell>
  );
}
