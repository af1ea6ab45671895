import type { Route } from "./+types/privacy-policy";
import { pageMeta, rootInfo } from "~/site/seo";
import { PolicyPage } from "~/site/sections/PolicyPage";
import { loadPolicy } from "~/site/sections/public-sections-page.server";

// Plain HTML with nothing for React to do: sent without its scripts (see root.tsx).
export const handle = { lean: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Privacy Policy",
    description:
      "What personal data we collect from learners and clients, why, how long we keep it, and how to see, correct or delete it.",
    path: "/PrivacyPolicy",
  });

/** The text admins keep on /staff/site, or the product's own until they publish theirs. */
export async function loader() {
  return loadPolicy("privacy");
}

export default function PrivacyPolicyPage({ loaderData }: Route.ComponentProps) {
  return <PolicyPage title="Privacy Policy" policy={loaderData.policy} />;
}
