import { exportFeesResponse } from "~/placement/fees-export-page.server";
import type { Route } from "./+types/staff.fees.csv";

/** Every open instalment falling due by the month's end, as a CSV download. */
export async function loader({ request }: Route.LoaderArgs) {
  return exportFeesResponse(request);
}
