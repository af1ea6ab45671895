import {
  aboutUs,
  advantageSection,
  contactUs,
  courses,
  coursesSection,
  features,
  formatRupees,
  ourFeatures,
  services,
  servicesSection,
  welcome,
} from "~/content/site-content";
import { landingPlacement } from "~/placement/outcomes-page.server";
import { landingProof } from "~/site/proof.server";

/**
 * What the landing page shows, sent as loader data rather than bundled: the copy is ~5 KB gzip
 * of JavaScript that would otherwise count against the page's 120 KB budget. Prices are
 * written here so the client needs no formatting code either.
 */
export function landingContent() {
  return {
    welcome,
    servicesSection,
    services,
    ourFeatures,
    advantageSection,
    features,
    coursesSection,
    courses: courses.map((course) => ({
      ...course,
      priceText: course.price === null ? null : formatRupees(course.price),
    })),
    aboutUs,
    contactUs,
  };
}

export type LandingContent = ReturnType<typeof landingContent>;

/** The home route's loader data for the landing view: spread it into whatever the loader returns. */
export function landingLoaderData(): { landing: LandingContent } {
  return { landing: landingContent() };
}

/**
 * What the landing page shows from records: published testimonials and hiring partners, and the
 * placement figure. Both change only with events that drop the cached page.
 */
export async function landingRecords() {
  const [proof, placement] = await Promise.all([landingProof(), landingPlacement()]);
  return { proof, placement };
}
