import type { Route } from "./+types/refund-policy";
import { pageMeta, rootInfo } from "~/site/seo";
import { PolicyPage } from "~/site/sections/PolicyPage";
import { loadPolicy } from "~/site/sections/public-sections-page.server";

// Plain HTML with nothing for React to do: sent without its scripts (see root.tsx).
export const handle = { lean: true };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Refund Policy",
    description:
      "Ask for a refund within 7 days of payment, before you have accessed more than 20% of the course. Reviewed in 3–5 business days, credited in 7–10.",
    path: "/RefundPolicy",
  });

/** The text admins keep on /staff/site, or the product's own until they publish theirs. */
export async function loader() {
  return loadPolicy("refund");
}

export default function RefundPolicyPage({ loaderData }: Route.ComponentProps) {
  return <PolicyPage title="Refund Policy" policy={loaderData.policy} />;
}
