import { exportLearnersResponse, exportSelectedResponse } from "~/staff/learner-export-page.server";
import type { Route } from "./+types/staff.learners.csv";

/** The learners matching the staff list's search and filters, as a CSV download. */
export async function loader({ request }: Route.LoaderArgs) {
  return exportLearnersResponse(request);
}

/** Exactly the ticked learners (their ids are too many for an address), as the same CSV. */
export async function action({ request }: Route.ActionArgs) {
  return exportSelectedResponse(request);
}
