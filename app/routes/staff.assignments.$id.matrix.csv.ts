import { assignmentMatrixCsv } from "~/assignments/reviews-page.server";
import type { Route } from "./+types/staff.assignments.$id.matrix.csv";

/** One assignment's learners and their statuses, as a CSV download. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return assignmentMatrixCsv(request, params.id);
}
