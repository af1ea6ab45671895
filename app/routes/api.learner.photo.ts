import { authorizeChange, refuseJson } from "~/accounts/permissions.server";
import { getServices } from "~/platform/services.server";
import { photoMaxBytes, photoMessages } from "~/uploads/photo-rules";
import { readLimited, replaceProfilePhoto } from "~/uploads/photos.server";
import type { Route } from "./+types/api.learner.photo";

/** A new profile photo: the image is the body, re-encoded by sharp before it is stored. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return refuseJson(405, "Method not allowed.");
  const access = await authorizeChange(request);
  if (!access.ok) return refuseJson(access.status, access.message);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > photoMaxBytes) return refuseJson(413, photoMessages.tooLarge);
  const bytes = await readLimited(request.body, photoMaxBytes);
  if (!bytes) return refuseJson(413, photoMessages.tooLarge);
  if (bytes.length === 0) return refuseJson(415, photoMessages.wrongType);
  const { database, storage, bus, logger } = await getServices();
  const result = await replaceProfilePhoto({ db: database.db, storage, bus, logger }, access.user.id, bytes);
  return result.ok
    ? Response.json({ photoUrl: result.url }, { headers: { "Cache-Control": "private, no-store" } })
    : refuseJson(result.status, result.message);
}
