import { lazy } from "react";
import { redirect } from "react-router";
import type { Route } from "./+types/home";
import { AccountButtons, AuthModalProvider } from "~/accounts/AuthModalProvider";
import { getSessionUser } from "~/accounts/permissions.server";
import { signedInParam } from "~/accounts/signed-in-landing";
import { hasAccess } from "~/core/access";
import { dashboardAction, loadDashboard } from "~/dashboard/dashboard-page.server";
import { LandingPage } from "~/site/landing/LandingPage";
import { landingLoaderData, landingRecords } from "~/site/landing/landing-page.server";
import { enquiryAction, readEnquiryForm } from "~/enquiries/enquiry-form-page.server";
import { pageMeta, rootInfo, signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (loaderData?.signedIn) return signedInMeta(matches, "Dashboard");
  const info = rootInfo(matches);
  const name = info?.site.name ?? "Upskill";
  return pageMeta(info, {
    title: `${name}: software development, training and internships in Pune`,
    description:
      "Software development for businesses and job-ready training for developers in Pune: pay-after-placement courses in web, app, Java, Python, DSA and more, with internships on live projects.",
    path: "/",
  });
};

// Its own chunk: the anonymous landing page does not load the signed-in view's code.
const SignedInDashboard = lazy(() => import("~/dashboard/SignedInDashboard"));

/**
 * Signed in: the learner dashboard, as at /dashboard. Otherwise the landing page, whose copy
 * travels as data, not JavaScript (see landing-page.server.ts). A request without a session
 * cookie reads only the published testimonials and partners and sets no cookie: the server caches that
 * render for everyone. It goes out as HTML without React's scripts (`lean`, see root.tsx).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  // Just signed in: staff and admins start at the workspace, learners at their dashboard.
  if (user && new URL(request.url).searchParams.has(signedInParam)) {
    throw redirect(hasAccess(user.level, "staff") ? "/staff" : "/");
  }
  if (user) return { signedIn: true as const, ...(await loadDashboard(request, user)) };
  // Lean (no React in the browser) unless it is to open the sign-in modal (?auth=…).
  return {
    signedIn: false as const,
    lean: !new URL(request.url).searchParams.has("auth"),
    ...(await landingLoaderData()),
    ...(await landingRecords()),
  };
}

/** The landing page's enquiry form; signed in, the dashboard's actions. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readEnquiryForm(request);
  if (form) return enquiryAction(request, form);
  return dashboardAction(request);
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  if (loaderData.signedIn) return <SignedInDashboard data={loaderData} />;
  return (
    <AuthModalProvider courseOptions={loaderData.courseOptions}>
      <LandingPage accountAction={<AccountButtons />} />
    </AuthModalProvider>
  );
}
