import { advertisedCourses, signUpCourseOptions } from "~/catalogue/catalogue.server";
import { contactUs, coursesSection } from "~/content/site-content";
import { enquiryChoices } from "~/enquiries/enquiry-courses.server";
import { getServices } from "~/platform/services.server";
import { landingPlacement } from "~/placement/outcomes-page.server";
import { publicProof } from "~/site/proof.server";
import type { SiteSections } from "~/site/sections/section-types";
import { publishedSections } from "~/site/sections/sections.server";

/**
 * What the landing page shows, sent as loader data rather than bundled: the copy is ~5 KB gzip
 * of JavaScript that would otherwise count against the page's 120 KB budget. The courses are
 * the catalogue admins keep (/staff/courses), with prices and Register Now addresses written
 * here so the client needs no formatting code either.
 */
async function landingContent(sections: SiteSections) {
  const { database, config } = await getServices();
  return {
    hero: sections.hero,
    services: sections.services,
    features: sections.features,
    advantages: sections.advantages,
    coursesSection,
    courses: await advertisedCourses(database.db, config.paymentUrl),
    aboutUs: sections["about-us"],
    contactUs,
  };
}

export type LandingContent = Awaited<ReturnType<typeof landingContent>>;

/**
 * The home route's loader data for the landing view, with the sign-up form's course options
 * (for the auth modal) and the enquiry form's choices (from the same catalogue read): spread it
 * into whatever the loader returns. The sections are the published ones, or the admins' drafts
 * for their preview.
 */
export async function landingLoaderData(drafted?: SiteSections): Promise<{
  landing: LandingContent;
  courseOptions: string[];
  enquiryCourses: string[];
}> {
  const { database, config } = await getServices();
  const sections = drafted ?? (await publishedSections(database.db, config.site));
  const [landing, courseOptions] = await Promise.all([landingContent(sections), signUpCourseOptions(database.db)]);
  return { landing, courseOptions, enquiryCourses: enquiryChoices(landing.courses) };
}

/**
 * What the landing page shows from records: published testimonials and hiring partners, and the
 * placement figure. Both change only with events that drop the cached page.
 */
export async function landingRecords() {
  const { database } = await getServices();
  const [proof, placement] = await Promise.all([publicProof(database.db), landingPlacement()]);
  return { proof, placement };
}
