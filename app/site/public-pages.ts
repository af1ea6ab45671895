/**
 * The public pages: their routes (app/routes.ts reads this list), the sitemap, the
 * anonymous-page cache and the redirect from other spellings (/privacypolicy) all come from
 * here. A public page is its route module and one line here.
 */
export const publicPages = [
  // Shows the placement figure from the same records as /outcomes: dropped when they change,
  // but not when a learner's consent to be named does (the figure counts everyone).
  { path: "/", file: "routes/home.tsx", changesWith: ["placement"] },
  { path: "/about", file: "routes/about.tsx" },
  { path: "/contact", file: "routes/contact.tsx" },
  { path: "/PrivacyPolicy", file: "routes/privacy-policy.tsx" },
  { path: "/RefundPolicy", file: "routes/refund-policy.tsx" },
  { path: "/TermsAndConditions", file: "routes/terms-and-conditions.tsx" },
  { path: "/verify", file: "routes/verify.tsx" },
  // Built from placement records and names those who consented: the cache drops it when either
  // changes (page-cache-stage.server.ts).
  { path: "/outcomes", file: "routes/outcomes.tsx", changesWith: ["placement", "consent"] },
] as const;

/** What changes a page built from records: placement records, or only who consented to be named. */
export type PublicPageChange = "placement" | "consent";

export const publicPaths: readonly string[] = publicPages.map((page) => page.path);
