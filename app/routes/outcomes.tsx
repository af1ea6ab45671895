import type { Route } from "./+types/outcomes";
import { loadPublicOutcomes } from "~/placement/outcomes-page.server";
import { PublicOutcomesPage } from "~/placement/PublicOutcomesPage";
import { PageShell } from "~/site/PageShell";
import { pageMeta, rootInfo } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(rootInfo(matches), {
    title: "Placement outcomes",
    description:
      "How many of our graduates seeking a job were placed within 180 days, at what pay, counted from verified offers.",
    path: "/outcomes",
  });

export async function loader() {
  return loadPublicOutcomes();
}

export default function OutcomesRoute({ loaderData }: Route.ComponentProps) {
  return (
    <PageShell wide>
      <PublicOutcomesPage data={loaderData} />
    </PageShell>
  );
}
