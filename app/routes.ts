import { type RouteConfig, index, route } from "@react-router/dev/routes";
import { publicPages } from "./site/public-pages";

// Paths are case-sensitive so that /privacypolicy and friends reach the catch-all,
// which redirects them to the canonical spelling.
const exact = { caseSensitive: true } as const;

export default [
  ...publicPages.map((page) => (page.path === "/" ? index(page.file) : route(page.path.slice(1), page.file, exact))),
  // The public landing page for signed-in people (at /, they see their dashboard).
  route("home", "routes/public-site.tsx", exact),
  route("dashboard", "routes/dashboard.tsx", exact),
  route("staff", "routes/staff.tsx", exact),
  route("staff/learners/:id", "routes/staff.learners.$id.tsx", exact),
  route("staff/audit", "routes/staff.audit.tsx", exact),
  route("staff/people", "routes/staff.people.tsx", exact),
  route("staff/documents", "routes/staff.documents.tsx", exact),
  route("staff/import", "routes/staff.import.tsx", exact),
  route("staff/placement", "routes/staff.placement.tsx", exact),
  route("staff/placement/:learnerId", "routes/staff.placement.$learnerId.tsx", exact),
  route("staff/batches", "routes/staff.batches.tsx", exact),
  route("placement", "routes/placement.tsx", exact),
  route("staff/site", "routes/staff.site.tsx", exact),
  route("staff/courses", "routes/staff.courses.tsx", exact),
  route("staff/outcomes", "routes/staff.outcomes.tsx", exact),
  route("staff/fees", "routes/staff.fees.tsx", exact),
  route("staff/enquiries", "routes/staff.enquiries.tsx", exact),
  route("reset-password", "routes/reset-password.tsx", exact),
  route("unsubscribe", "routes/unsubscribe.tsx", exact),
  route("account-deleted", "routes/account-deleted.tsx", exact),
  route("verify/:code", "routes/verify.$code.tsx", exact),
  route("verify/:code/credential.json", "routes/verify.$code.credential.ts", exact),
  // Resource routes: what a page can't serve.
  route("healthz", "routes/healthz.ts", exact),
  route("readyz", "routes/readyz.ts", exact),
  route("metrics", "routes/metrics.ts", exact),
  route("api/auth/*", "routes/api.auth.$.ts"),
  route("api/learner/resume/upload/*", "routes/api.learner.resume.upload.$.ts", exact),
  route("api/learner/resume", "routes/api.learner.resume.ts", exact),
  route("api/learner/photo", "routes/api.learner.photo.ts", exact),
  route("api/learner/photos/:name", "routes/api.learner.photos.$name.ts", exact),
  route("api/documents/:code/pdf", "routes/api.documents.$code.pdf.ts", exact),
  route("api/events", "routes/api.events.ts", exact),
  route("api/enquiry-time", "routes/api.enquiry-time.ts", exact),
  route("api/my-data", "routes/api.my-data.ts", exact),
  route("api/placement/offers/:id/file", "routes/api.placement.offers.$id.file.ts", exact),
  route("staff/learners.csv", "routes/staff.learners.csv.ts", exact),
  route("staff/fees.csv", "routes/staff.fees.csv.ts", exact),
  route("staff/import/template.csv", "routes/staff.import.template.csv.ts", exact),
  route("staff/import/:id/failed.csv", "routes/staff.import.$id.failed.csv.ts", exact),
  route("robots.txt", "routes/robots.ts", exact),
  route("sitemap.xml", "routes/sitemap.ts", exact),
  // What anyone checks a document's signature with.
  route(".well-known/jwks.json", "routes/well-known.jwks.ts", exact),
  route(".well-known/did.json", "routes/well-known.did.ts", exact),
  route("credentials/status/1", "routes/credentials.status.1.ts", exact),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
