import { useMatches, useRouteLoaderData } from "react-router";
import type { Brand } from "./sections/section-types";
import type { PublicSiteInfo } from "./site-info.server";

/**
 * The root loader's public site information, from any component. The admins' preview sends its
 * drafted brand as `previewBrand`, which then stands in for the published one.
 */
export function useSiteInfo(): PublicSiteInfo {
  const data = useRouteLoaderData("root") as PublicSiteInfo | undefined;
  const preview = (useMatches().at(-1)?.loaderData as { previewBrand?: Brand } | undefined)?.previewBrand;
  if (!data) throw new Error("useSiteInfo needs the root loader's data");
  return preview ? { ...data, site: preview } : data;
}
