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
  route("home", "routes/public-site.tsx", exact),
  route("dashboard", "routes/dashboard.tsx", exact),
  route("staff", "routes/staff.tsx", exact),
  route("staff/learners/:id", "routes/staff.learners.$id.tsx", exact),
  route("staff/audit", "routes/staff.audit.tsx", exact),
  route("healthz", "routes/healthz.ts", exact),
  route("api/auth/*", "routes/api.auth.$.ts"),
  route("reset-password", "routes/reset-password.tsx", exact),
  route("api/learner/resume/upload/*", "routes/api.learner.resume.upload.$.ts", exact),
  route("api/learner/resume", "routes/api.learner.resume.ts", exact),
  route("api/learner/photo", "routes/api.learner.photo.ts", exact),
  route("api/learner/photos/:name", "routes/api.learner.photos.$name.ts", exact),
  route("api/events", "routes/api.events.ts", exact),
  route("robots.txt", "routes/robots.ts", exact),
  route("sitemap.xml", "routes/sitemap.ts", exact),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
