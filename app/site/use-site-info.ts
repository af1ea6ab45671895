import { useRouteLoaderData } from "react-router";
import type { PublicSiteInfo } from "./site-info.server";

/** The root loader's public site information, from any component. */
export function useSiteInfo(): PublicSiteInfo {
  const data = useRouteLoaderData("root") as PublicSiteInfo | undefined;
  if (!data) throw new Error("useSiteInfo needs the root loader's data");
  return data;
}
