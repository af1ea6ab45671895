import { advertisedCourses, signUpCourseOptions } from "~/catalogue/catalogue.server";
import {
  aboutUs,
  advantageSection,
  contactUs,
  coursesSection,
  features,
  ourFeatures,
  services,
  servicesSection,
  welcome,
} from "~/content/site-content";
import { enquiryChoices } from "~/enquiries/enquiry-courses.server";
import { getServices } from "~/platform/services.server";
import { landingPlacement } from "~/placement/outcomes-page.server";
import { publicProof } from "~/site/proof.server";

/**
 * What the landing page shows, sent as loader data rather than bundled: the copy is ~5 KB gzip
 * of JavaScript that would otherwise count against the page's 120 KB budget. The courses are
 * the catalogue admins keep (/staff/courses), with prices and Register Now addresses written
 * here so the client needs no formatting code either.
 */
async function landingContent() {
  const { database, config } = await getServices();
  return {
    welcome,
    servicesSection,
    services,
    ourFeatures,
    advantageSection,
    features,
    coursesSection,
    courses: await advertisedCourses(database.db, config.paymentUrl),
    aboutUs,
    contactUs,
  };
}

export type LandingContent = Awaited<ReturnType<typeof landingContent>>;

/**
 * The home route's loader data for the landing view, with the sign-up form's course options
 * (for the auth modal) and the enquiry form's choices (from the same catalogue read): spread it
 * into whatever the loader returns.
 */
export async function landingLoaderData(): Promise<{
  landing: LandingContent;
  courseOptions: string[];
  enquiryCourses: string[];
}> {
  const { database } = await getServices();
  const [landing, courseOptions] = await Promise.all([landingContent(), signUpCourseOptions(database.db)]);
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
