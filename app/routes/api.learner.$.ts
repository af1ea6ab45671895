import { getLearnerServices } from "~/learners/learner-services.server";
import type { Route } from "./+types/api.learner.$";

/** The learner dashboard's endpoints (app/learners/learner-api.server.ts), tus uploads included. */
async function handle(request: Request) {
  const { api } = await getLearnerServices();
  return api(request);
}

export async function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export async function action({ request }: Route.ActionArgs) {
  return handle(request);
}
