import { getServices } from "~/platform/services.server";
import type { PolicyKey } from "./section-types";
import { publishedSections } from "./sections.server";

/** A policy page's loader data: its published text (or the product's own). */
export async function loadPolicy(key: PolicyKey) {
  const { database, config } = await getServices();
  return { policy: (await publishedSections(database.db, config.site))[key] };
}
