import { authorize, authorizeChange, refuseJson } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import type { Route } from "./+types/api.assignments.upload.$";

/**
 * A learner's resumable (tus) upload of a file for one of their assignments. Starting one (POST)
 * counts against the learner's budget of changes; the bytes that follow (PATCH, HEAD) do not.
 */
async function handle(request: Request) {
  const access = request.method === "POST" ? await authorizeChange(request) : await authorize(request);
  if (!access.ok) return refuseJson(access.status, access.message);
  const { assignmentUploads } = await getServices();
  return assignmentUploads.handle(request, access.user.id);
}

export async function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export async function action({ request }: Route.ActionArgs) {
  return handle(request);
}
