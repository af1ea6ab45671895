import type { Route } from "./+types/dashboard";
import { dashboardAction, loadDashboard } from "~/dashboard/dashboard-page.server";
import SignedInDashboard from "~/dashboard/SignedInDashboard";
import { signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Dashboard");

export async function loader({ request }: Route.LoaderArgs) {
  return loadDashboard(request);
}

export async function action({ request }: Route.ActionArgs) {
  return dashboardAction(request);
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <SignedInDashboard data={loaderData} />;
}
