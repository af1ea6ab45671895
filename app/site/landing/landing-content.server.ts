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
