import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { publicPages, publicPaths } from "~/site/public-pages";

// Pages that are not public, each for a reason: these are never cached for everyone, listed in
// the sitemap or reached under another spelling.
const notPublic = new Map([
  ["routes/public-site.tsx", "the landing page again, for signed-in people; its canonical address is /"],
  ["routes/dashboard.tsx", "signed in"],
  ["routes/settings.tsx", "signed in"],
  ["routes/staff.tsx", "signed in, staff"],
  ["routes/staff.learners.$id.tsx", "signed in, staff"],
  ["routes/staff.audit.tsx", "signed in, admin"],
  ["routes/staff.people.tsx", "signed in, staff"],
  ["routes/staff.documents.tsx", "signed in, admin"],
  ["routes/staff.import.tsx", "signed in, admin"],
  ["routes/staff.placement.tsx", "signed in, staff"],
  ["routes/staff.placement.$learnerId.tsx", "signed in, staff"],
  ["routes/staff.batches.tsx", "signed in, staff"],
  ["routes/staff.reviews.tsx", "signed in, staff"],
  ["routes/staff.batches.$id.tsx", "signed in, staff"],
  ["routes/staff.assignments.$id.tsx", "signed in, staff"],
  ["routes/placement.tsx", "signed in"],
  ["routes/staff.site.tsx", "signed in, admin"],
  ["routes/staff.site.preview.tsx", "signed in, admin: the drafts, before they are published"],
  ["routes/staff.courses.tsx", "signed in, admin"],
  ["routes/staff.outcomes.tsx", "signed in, staff"],
  ["routes/staff.fees.tsx", "signed in, staff"],
  ["routes/staff.enquiries.tsx", "signed in, staff"],
  ["routes/reset-password.tsx", "a private link from an email"],
  ["routes/unsubscribe.tsx", "a private link from an email"],
  ["routes/account-deleted.tsx", "only after deleting an account"],
  ["routes/verify.$code.tsx", "one document's page, read from the database; not listed"],
  ["routes/not-found.tsx", "every address nothing else answers"],
]);

const appDir = path.resolve(import.meta.dirname, "..", "..", "app");
const isPage = (file: string) => /export default function/.test(fs.readFileSync(path.join(appDir, file), "utf8"));

describe("the route table", () => {
  it("registers every page either as public (cache, sitemap, spellings) or as not public, for a reason", () => {
    const pages = routes.map((r) => r.file).filter(isPage);
    const publicFiles = new Set<string>(publicPages.map((p) => p.file));
    const unregistered = pages.filter((file) => !publicFiles.has(file) && !notPublic.has(file));
    expect(unregistered, "add the page to app/site/public-pages.ts, or to notPublic here with its reason").toEqual([]);
    // And nothing is both, or listed without a route.
    expect(pages.filter((file) => publicFiles.has(file) && notPublic.has(file))).toEqual([]);
    expect([...notPublic.keys(), ...publicFiles].filter((file) => !pages.includes(file))).toEqual([]);
  });

  it("gives each public page its route at its path, case-sensitive", () => {
    for (const page of publicPages) {
      const entry = routes.find((r) => r.file === page.file)!;
      if (page.path === "/") expect(entry.index).toBe(true);
      else expect([entry.path, entry.caseSensitive]).toEqual([page.path.slice(1), true]);
    }
    expect(new Set(publicPaths).size).toBe(publicPaths.length);
  });
});
