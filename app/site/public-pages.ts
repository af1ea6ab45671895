/** The public pages, for the sitemap and the anonymous-page cache. */
export const publicPaths = [
  "/",
  "/about",
  "/contact",
  "/PrivacyPolicy",
  "/RefundPolicy",
  "/TermsAndConditions",
] as const;
