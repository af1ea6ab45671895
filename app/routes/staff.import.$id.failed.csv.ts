import { failedRowsResponse } from "~/staff/import-page.server";
import type { Route } from "./+types/staff.import.$id.failed.csv";

/** An import's failed rows, with the reason for each. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return failedRowsResponse(request, params.id);
}
