import { getServices } from "~/platform/services.server";
import { siteImageResponse } from "~/site/sections/site-images.server";
import type { Route } from "./+types/site-images.$name";

/** The site's logo and hero pictures, by their content's name: public, cached for a year. */
export async function loader({ params }: Route.LoaderArgs) {
  const { database } = await getServices();
  return siteImageResponse(database.db, params.name);
}
