import { isRouteErrorResponse, useRouteError } from "react-router";
import type { Route } from "./+types/verify.$code";
import { VerifyForm, VerifyPage } from "~/documents/VerifyPage";
import { verifyMessages } from "~/documents/verify-messages";
import { loadVerifyPage } from "~/documents/verify-page.server";
import { PageShell } from "~/site/PageShell";
import { pageMeta, rootInfo } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches, loaderData, location }) => {
  const document = loaderData?.document;
  return [
    ...pageMeta(rootInfo(matches), {
      title: document ? `Verify ${document.code}` : "Verify a document",
      description: document
        ? `${document.kind === "certificate" ? "Certificate" : "Offer letter"} issued by ${document.issuerName}: check whether it is valid.`
        : "Check a certificate or offer letter by its code.",
      path: location.pathname,
      // A page per person's document: reachable by its link, never listed by a search engine.
      noindex: true,
    }),
    // The code is in this page's address: keep it out of other sites' logs.
    { name: "referrer", content: "no-referrer" },
  ];
};

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadVerifyPage(request, params.code);
}

export default function VerifyDocumentRoute({ loaderData }: Route.ComponentProps) {
  return (
    <PageShell>
      <VerifyPage {...loaderData} />
    </PageShell>
  );
}

/** Unknown code (404) or too many of them (429): the answer, and the form to try again. */
export function ErrorBoundary() {
  const error = useRouteError();
  const message =
    isRouteErrorResponse(error) && error.status < 500
      ? String((error.data as { message?: unknown } | null)?.message ?? verifyMessages.notFound)
      : "The document could not be shown. Please try again in a moment.";
  return (
    <PageShell>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{message}</h1>
      <p className="mt-3 text-slate-700">Check the code printed on the document and type it again.</p>
      <VerifyForm />
    </PageShell>
  );
}
