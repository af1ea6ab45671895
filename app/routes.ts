import { type RouteConfig, index, route } from "@react-router/dev/routes";

// Paths are case-sensitive so that /privacypolicy and friends reach the catch-all,
// which redirects them to the canonical spelling.
const exact = { caseSensitive: true } as const;

export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx", exact),
  route("contact", "routes/contact.tsx", exact),
  route("PrivacyPolicy", "routes/privacy-policy.tsx", exact),
  route("RefundPolicy", "routes/refund-policy.tsx", exact),
  route("TermsAndConditions", "routes/terms-and-conditions.tsx", exact),
  route("dashboard", "routes/dashboard.tsx", exact),
  route("healthz", "routes/healthz.ts", exact),
  route("api/auth/*", "routes/api.auth.$.ts"),
  route("reset-password", "routes/reset-password.tsx", exact),
  route("api/learner/*", "routes/api.learner.$.ts"),
  route("api/events", "routes/api.events.ts", exact),
  route("api/staff/*", "routes/api.staff.$.ts"),
  route("robots.txt", "routes/robots.ts", exact),
  route("sitemap.xml", "routes/sitemap.ts", exact),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
