import { requireRole } from "~/accounts/permissions.server";
import { formatDay } from "~/core/dates";
import { getServices } from "~/platform/services.server";
import { landingLoaderData, landingRecords } from "../landing/landing-page.server";
import { policyKeys, sectionNames, type PolicyKey } from "./section-types";
import { draftSections, publishedSections } from "./sections.server";

/** The pages the preview shows: the landing page, or a policy. */
export const previewPages = ["home", ...policyKeys] as const;
export type PreviewPage = (typeof previewPages)[number];

/**
 * /staff/site/preview?page=… (admins): the drafts of every section, with the drafted brand, as
 * visitors will see them once published. A policy whose text changed shows today as its date,
 * as publishing will set it.
 */
export async function loadPreview(request: Request) {
  const user = await requireRole(request, "admin");
  const { database, config } = await getServices();
  const asked = new URL(request.url).searchParams.get("page") ?? "home";
  const page: PreviewPage = (previewPages as readonly string[]).includes(asked) ? (asked as PreviewPage) : "home";
  const [{ sections, drafts }, published] = await Promise.all([
    draftSections(database.db, config.site),
    publishedSections(database.db, config.site),
  ]);
  // enquiryPreview: the enquiry form is shown as visitors see it, but sends nothing from here.
  const common = {
    user: { id: user.id, level: user.level },
    page,
    drafts,
    previewBrand: sections.brand,
    enquiryPreview: true as const,
  };
  if (page !== "home") {
    const key: PolicyKey = page;
    const section = sections[key];
    const updated =
      section.body === published[key].body
        ? section.updated
        : formatDay(new Date().toISOString(), config.instituteTimeZone);
    return { ...common, policy: { title: sectionNames[key], section: { ...section, updated } } };
  }
  return { ...common, policy: null, ...(await landingLoaderData(sections)), ...(await landingRecords()) };
}
