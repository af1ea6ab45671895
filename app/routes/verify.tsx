import type { Route } from "./+types/verify";
import { VerifyForm } from "~/documents/VerifyPage";
import { verifyCodeFromForm } from "~/documents/verify-page.server";
import { PageShell } from "~/site/PageShell";
import { pageMeta, rootInfo } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Verify a certificate or offer letter",
    description: "Check that a certificate or offer letter was issued by us, and whether it is still valid.",
    path: "/verify",
  });

/** Without a code: the form (the shared cache serves it). With one: its page, or what is wrong. */
export function loader({ request }: Route.LoaderArgs) {
  return verifyCodeFromForm(request);
}

export default function VerifyCodePage({ loaderData }: Route.ComponentProps) {
  return (
    <PageShell>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        Verify a certificate or offer letter
      </h1>
      <p className="mt-3 text-slate-700">
        Type the code printed on the document to see whether it is valid, who it was issued to, and when. Scanning the
        document's QR code opens the same page.
      </p>
      <VerifyForm typed={loaderData.typed} problem={loaderData.problem} />
    </PageShell>
  );
}
