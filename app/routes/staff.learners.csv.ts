import { exportLearnersResponse } from "~/staff/learner-export-page.server";
import type { Route } from "./+types/staff.learners.csv";

/** The learners matching the staff list's search and course, as a CSV download. */
export async function loader({ request }: Route.LoaderArgs) {
  return exportLearnersResponse(request);
}
