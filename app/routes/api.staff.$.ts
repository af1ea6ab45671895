import { staffApi } from "~/staff/staff-services.server";
import type { Route } from "./+types/api.staff.$";

/** The staff dashboard's endpoints (app/staff/staff-http.server.ts): every one checks the role. */
export async function loader({ request }: Route.LoaderArgs) {
  return staffApi(request);
}

export async function action({ request }: Route.ActionArgs) {
  return staffApi(request);
}
