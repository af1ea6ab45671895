import { hasAccess } from "~/core/access";
import { authorize, refuseJson } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { idFromAddress } from "~/core/text";
import { resumeDownloadResponse } from "~/uploads/resumes.server";
import type { Route } from "./+types/api.learner.resume";

const noResume = "No resume has been uploaded.";

/** The learner's own resume; staff may name a learner (`?learner=<id>`). */
export async function loader({ request }: Route.LoaderArgs) {
  const access = await authorize(request);
  if (!access.ok) return refuseJson(access.status, access.message);
  const asked = new URL(request.url).searchParams.get("learner");
  const learnerId = asked === null ? access.user.id : idFromAddress(asked);
  // Another learner's id is answered like a missing resume, never with its file.
  if (!learnerId) return refuseJson(404, noResume);
  if (learnerId !== access.user.id && !hasAccess(access.user.level, "staff")) return refuseJson(404, noResume);
  const { database, storage } = await getServices();
  return resumeDownloadResponse({ db: database.db, storage }, learnerId);
}
