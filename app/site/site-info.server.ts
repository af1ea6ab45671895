import type { AccessLevel } from "~/core/access";
import type { Config } from "~/config/config.server";
import type { Brand } from "./sections/section-types";

/** What every page may show of the configuration and the published brand: nothing secret. */
export function publicSiteInfo(config: Config, brand: Brand) {
  return {
    site: brand,
    appUrl: config.appUrl,
    year: new Date().getFullYear(),
  };
}

/** The root loader's data: the site's information, and for staff the count of new enquiries. */
export type PublicSiteInfo = ReturnType<typeof publicSiteInfo> & {
  newEnquiries?: number;
  /** A signed-in person's access: an error page is shown inside their header. */
  level?: AccessLevel;
};
