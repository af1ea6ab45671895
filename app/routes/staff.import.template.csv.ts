import { importTemplateResponse } from "~/staff/import-page.server";
import type { Route } from "./+types/staff.import.template.csv";

/** The header row a learner import file needs. */
export async function loader({ request }: Route.LoaderArgs) {
  return importTemplateResponse(request);
}
