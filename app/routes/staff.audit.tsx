import type { Route } from "./+types/staff.audit";
import { SignedInShell } from "~/signed-in/SignedInShell";
import { signedInMeta } from "~/site/seo";
import { AuditLog } from "~/staff/AuditLog";
import { loadAudit } from "~/staff/staff-page.server";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Audit Log");

export async function loader({ request }: Route.LoaderArgs) {
  return loadAudit(request);
}

export default function AuditRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SignedInShell level={loaderData.user.level}>
      <AuditLog data={loaderData} />
    </SignedInShell>
  );
}
