import type { Route } from "./+types/public-site";
import { Link } from "react-router";
import { AccountButtons, AuthModalProvider } from "~/accounts/AuthModalProvider";
import { getSessionUser, refuse } from "~/accounts/permissions.server";
import { LandingPage } from "~/site/landing/LandingPage";
import { landingLoaderData, landingRecords } from "~/site/landing/landing-page.server";
import { enquiryAction, readEnquiryForm } from "~/enquiries/enquiry-form-page.server";
import { pageMeta, rootInfo } from "~/site/seo";
import { primaryButton } from "~/ui/styles";

// The landing page for signed-in people too (at /, they see their dashboard). Its canonical
// address is /, so search engines list that one.
export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: rootInfo(matches)?.site.name ?? "Upskill",
    description: "Courses, services and contact details of the institute.",
    path: "/",
    noindex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const lean = user === null && !new URL(request.url).searchParams.has("auth");
  return {
    signedIn: user !== null,
    lean,
    ...(await landingLoaderData()),
    ...(await landingRecords()),
  };
}

/** The landing page's enquiry form. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readEnquiryForm(request);
  return form ? enquiryAction(request, form) : refuse(400, "This page takes only the enquiry form.");
}

export default function PublicSite({ loaderData }: Route.ComponentProps) {
  if (loaderData.signedIn) {
    return (
      <LandingPage
        accountAction={
          <Link to="/dashboard" className={primaryButton}>
            Dashboard
          </Link>
        }
      />
    );
  }
  return (
    <AuthModalProvider courseOptions={loaderData.courseOptions}>
      <LandingPage accountAction={<AccountButtons />} />
    </AuthModalProvider>
  );
}
