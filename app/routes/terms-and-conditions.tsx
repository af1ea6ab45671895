import type { Route } from "./+types/terms-and-conditions";
import { pageMeta, rootInfo } from "~/site/seo";
import { PolicyPage } from "~/site/sections/PolicyPage";
import { loadPolicy } from "~/site/sections/public-sections-page.server";

// Plain HTML with nothing for React to do: sent without its scripts (see root.tsx).
export const handle = { lean: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Terms and Conditions",
    description:
      "The terms for using this website, creating a learner account and joining our courses and internships in Pune.",
    path: "/TermsAndConditions",
  });

/** The text admins keep on /staff/site, or the product's own until they publish theirs. */
export async function loader() {
  return loadPolicy("terms");
}

export default function TermsAndConditionsPage({ loaderData }: Route.ComponentProps) {
  return <PolicyPage title="Terms and Conditions" policy={loaderData.policy} />;
}
