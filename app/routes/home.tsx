import { lazy } from "react";
import type { Route } from "./+types/home";
import { AuthModalProvider, LoginButton } from "~/accounts/AuthModalProvider";
import { getSessionUser } from "~/accounts/session.server";
import { loadLearnerState } from "~/dashboard/dashboard-data.server";
import { LandingPage } from "~/site/landing/LandingPage";
import { landingLoaderData } from "~/site/landing/landing-content.server";
import { pageMeta, rootInfo } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => {
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
const SignedInHome = lazy(() => import("~/accounts/SignedInHome").then((m) => ({ default: m.SignedInHome })));

/**
 * Signed in: the signed-in view. Otherwise the landing page, whose copy travels as data, not
 * JavaScript (see landing-content.server.ts). A request without a session cookie is answered
 * without a database query and sets no cookie: the server caches that render for everyone.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (user) return { user: { username: user.username, role: user.role }, learner: await loadLearnerState(user) };
  return { user: null, ...landingLoaderData() };
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  if (loaderData.user) return <SignedInHome user={loaderData.user} learner={loaderData.learner} />;
  return (
    <AuthModalProvider>
      <LandingPage accountAction={<LoginButton />} />
    </AuthModalProvider>
  );
}
