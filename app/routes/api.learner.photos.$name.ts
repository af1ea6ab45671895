import { getServices } from "~/platform/services.server";
import { photoResponse } from "~/uploads/photos.server";
import type { Route } from "./+types/api.learner.photos.$name";

/** A stored photo, served by its unguessable name alone (img tags, staff cards). */
export async function loader({ params }: Route.LoaderArgs) {
  const { storage } = await getServices();
  return photoResponse(storage, params.name);
}
