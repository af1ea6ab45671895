/**
 * The public pages: their routes (app/routes.ts reads this list), the sitemap, the
 * anonymous-page cache and the redirect from other spellings (/privacypolicy) all come from
 * here. A public page is its route module and one line here.
 */
export const publicPages = [
  // Shows the placement figure from the same records as /outcomes: dropped with it.
  { path: "/", file: "routes/home.tsx", changesWith: "placement" },
  { path: "/about", file: "routes/about.tsx" },
  { path: "/contact", file: "routes/contact.tsx" },
  { path: "/PrivacyPolicy", file: "routes/privacy-policy.tsx" },
  { path: "/RefundPolicy", file: "routes/refund-policy.tsx" },
  { path: "/TermsAndConditions", file: "routes/terms-and-conditions.tsx" },
  { path: "/verify", file: "routes/verify.tsx" },
  // Built from placement records: the cache drops it when they change (page-cache-stage.server.ts).
  { path: "/outcomes", file: "routes/outcomes.tsx", changesWith: "placement" },
] as const;

export const publicPaths: readonly string[] = publicPages.map((page) => page.path);
