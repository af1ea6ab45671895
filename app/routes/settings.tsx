import type { Route } from "./+types/settings";
import { SettingsPage } from "~/dashboard/SettingsPage";
import { loadSettings, settingsAction } from "~/dashboard/settings-page.server";
import { signedInMeta } from "~/site/seo";

export const meta: Route.MetaFunction = ({ matches }) => signedInMeta(matches, "Settings");

export async function loader({ request }: Route.LoaderArgs) {
  return loadSettings(request);
}

export async function action({ request }: Route.ActionArgs) {
  return settingsAction(request);
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  return <SettingsPage data={loaderData} />;
}
