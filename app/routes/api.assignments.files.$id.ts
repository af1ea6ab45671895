import { authorize, refuseJson } from "~/accounts/permissions.server";
import { assignmentFileResponse } from "~/assignments/assignment-uploads.server";
import { hasAccess } from "~/core/access";
import { idFromAddress } from "~/core/text";
import { getServices } from "~/platform/services.server";
import type { Route } from "./+types/api.assignments.files.$id";

/** A file handed in for an assignment: to the learner who handed it in, and to staff; else 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await authorize(request);
  if (!access.ok) return refuseJson(access.status, access.message);
  const fileId = idFromAddress(params.id);
  if (!fileId) return refuseJson(404, "No such file.");
  const { database, storage } = await getServices();
  const asStaff = hasAccess(access.user.level, "staff");
  return assignmentFileResponse({ db: database.db, storage }, fileId, asStaff ? null : access.user.id);
}
