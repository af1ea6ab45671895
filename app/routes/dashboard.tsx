import { redirect } from "react-router";
import type { Route } from "./+types/dashboard";
import { getSessionUser } from "~/accounts/session.server";
import { SignedInHome } from "~/accounts/SignedInHome";
import { loadLearnerState } from "~/dashboard/dashboard-data.server";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard" }, { name: "robots", content: "noindex" }];

/** Signed out: back to the public page. Signed in: the same view as /. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) throw redirect("/");
  return { user: { username: user.username, role: user.role }, learner: await loadLearnerState(user) };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <SignedInHome user={loaderData.user} learner={loaderData.learner} />;
}
