import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { expect, test } from "@playwright/test";
import routes from "~/routes";
import { inboxSearchSchema } from "~/enquiries/enquiry-fields";
import { auditQuerySchema } from "~/staff/audit-log-query";
import { staffIntents } from "~/staff/staff-intents.server";
import { searchSchema } from "~/staff/staff-types";
import {
  hasPostgres,
  startProbeServer,
  type Account,
  type ProbeDialect,
  type ProbeServer,
} from "../support/probe-server";
import { minimalPdf } from "../support/minimal-pdf";
import { root } from "../support/server-process";

// The security review's probes, kept as a regression suite: every route, loader and action
// intent against every kind of caller, and every state-changing request from another origin.
// The tables are generated from the route table and the intent tables, so a new route or
// intent that nobody classified here fails this suite instead of going unprobed.

type Caller = "anonymous" | "learnerA" | "learnerB" | "staff" | "admin";

/** What a caller may get: "ok" (served, or refused for its input: never 401/403), or a refusal. */
type Outcome = "ok" | 401 | 403 | 404 | "redirect";

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  expect: Record<Caller, Outcome>;
}

const everyone = (outcome: Outcome): Record<Caller, Outcome> => ({
  anonymous: outcome,
  learnerA: outcome,
  learnerB: outcome,
  staff: outcome,
  admin: outcome,
});
const signedIn: Record<Caller, Outcome> = { ...everyone("ok"), anonymous: 401 };
const staffOnly: Record<Caller, Outcome> = { ...everyone(403), anonymous: 401, staff: "ok", admin: "ok" };
const adminOnly: Record<Caller, Outcome> = { ...everyone(403), anonymous: 401, admin: "ok" };

const staffPage: Record<Caller, Outcome> = { ...staffOnly, anonymous: "redirect" };
const adminPage: Record<Caller, Outcome> = { ...adminOnly, anonymous: "redirect" };

/** An action's intent, as a page's form submits it (the page's `.data` address). */
const intentProbe = (path: string, fields: Record<string, string>, expect: Record<Caller, Outcome>): Probe => ({
  method: "POST",
  path: path === "/" ? "/_.data?index" : `${path}.data`,
  body: new URLSearchParams(fields).toString(),
  expect,
});

/** The route files of app/routes.ts and how each is probed. */
const routeProbes: Record<string, (ids: Ids) => Probe[]> = {
  "routes/home.tsx": () => [
    { method: "GET", path: "/", expect: everyone("ok") },
    intentProbe("/", { intent: "mark-read", kind: "notice", ids: "00000000-0000-0000-0000-000000000000" }, signedIn),
    intentProbe("/", { intent: "enquiry", name: "Probe" }, everyone("ok")),
  ],
  "routes/public-site.tsx": () => [
    { method: "GET", path: "/home", expect: everyone("ok") },
    intentProbe("/home", { intent: "enquiry", name: "Probe" }, everyone("ok")),
  ],
  "routes/about.tsx": () => [{ method: "GET", path: "/about", expect: everyone("ok") }],
  // The enquiry form is for everyone: refused for its input (400) or its rate (429), never for who sends it.
  "routes/contact.tsx": () => [
    { method: "GET", path: "/contact", expect: everyone("ok") },
    intentProbe("/contact", { intent: "enquiry", name: "Probe" }, everyone("ok")),
  ],
  "routes/privacy-policy.tsx": () => [{ method: "GET", path: "/PrivacyPolicy", expect: everyone("ok") }],
  "routes/refund-policy.tsx": () => [{ method: "GET", path: "/RefundPolicy", expect: everyone("ok") }],
  "routes/terms-and-conditions.tsx": () => [{ method: "GET", path: "/TermsAndConditions", expect: everyone("ok") }],
  "routes/dashboard.tsx": (ids) => dashboardProbes(ids),
  "routes/settings.tsx": (ids) => settingsProbes(ids),
  "routes/staff.tsx": (ids) => [
    { method: "GET", path: "/staff?q=a&course=Python&page=2", expect: staffPage },
    ...staffIntentProbes("/staff", ids),
  ],
  "routes/staff.learners.$id.tsx": (ids) => [
    { method: "GET", path: `/staff/learners/${ids.learnerA}`, expect: staffPage },
    { method: "GET", path: `/staff/learners/${"x".repeat(36)}`, expect: { ...staffPage, staff: 404, admin: 404 } },
    ...staffIntentProbes(`/staff/learners/${ids.learnerA}`, ids),
  ],
  "routes/staff.audit.tsx": () => [{ method: "GET", path: "/staff/audit", expect: adminPage }],
  "routes/placement.tsx": (ids) => [
    { method: "GET", path: "/placement", expect: { ...everyone("ok"), anonymous: "redirect" } },
    // Staff are not learners: they have no applications of their own.
    intentProbe(
      "/placement",
      { intent: "add-application", company: "Probe", role: "Probe", source: "own" },
      { ...signedIn, staff: 404, admin: 404 },
    ),
    // Learner A's records named by another: nothing of theirs, so not found.
    intentProbe(
      "/placement",
      { intent: "move-application", applicationId: ids.applicationA, stage: "shortlisted" },
      { ...everyone(404), anonymous: 401, learnerA: "ok" },
    ),
    intentProbe("/placement", { intent: "give-consent" }, signedIn),
    // Staff intents are not the learner page's: refused as unknown for everyone signed in.
    intentProbe("/placement", { intent: "verify-offer", applicationId: ids.applicationA }, signedIn),
  ],
  "routes/staff.placement.tsx": () => [
    { method: "GET", path: "/staff/placement?batch=x&course=y", expect: staffPage },
    // The same action as /staff, whose probes run every intent: here one of each kind.
    intentProbe("/staff/placement", { intent: "verify-offer", applicationId: "" }, staffOnly),
    intentProbe("/staff/placement", { intent: "waive-instalment", instalmentId: "" }, adminOnly),
  ],
  "routes/staff.placement.$learnerId.tsx": (ids) => [
    { method: "GET", path: `/staff/placement/${ids.learnerA}`, expect: staffPage },
    { method: "GET", path: `/staff/placement/${"x".repeat(36)}`, expect: { ...staffPage, staff: 404, admin: 404 } },
  ],
  "routes/staff.batches.tsx": () => [
    { method: "GET", path: "/staff/batches", expect: staffPage },
    intentProbe("/staff/batches", { intent: "create-batch", name: "" }, staffOnly),
    intentProbe("/staff/batches", { intent: "define-terms", name: "" }, adminOnly),
  ],
  // A batch, an assignment and a hand-in nobody made: staff are told they are gone (404).
  "routes/staff.batches.$id.tsx": () => [
    { method: "GET", path: `/staff/batches/${"x".repeat(36)}`, expect: { ...staffPage, staff: 404, admin: 404 } },
  ],
  "routes/staff.reviews.tsx": () => [{ method: "GET", path: "/staff/reviews", expect: staffPage }],
  "routes/staff.assignments.$id.tsx": () => [
    { method: "GET", path: `/staff/assignments/${"x".repeat(36)}`, expect: { ...staffPage, staff: 404, admin: 404 } },
  ],
  "routes/staff.assignments.$id.matrix.csv.ts": () => [
    {
      method: "GET",
      path: `/staff/assignments/${"x".repeat(36)}/matrix.csv`,
      expect: { ...staffPage, staff: 404, admin: 404 },
    },
  ],
  "routes/staff.site.preview.tsx": () => [{ method: "GET", path: "/staff/site/preview", expect: adminPage }],
  "routes/api.assignments.upload.$.ts": () => [
    { method: "HEAD", path: `/api/assignments/upload/${"x".repeat(32)}`, expect: { ...everyone(404), anonymous: 401 } },
  ],
  "routes/api.assignments.files.$id.ts": () => [
    { method: "GET", path: `/api/assignments/files/${"x".repeat(36)}`, expect: { ...everyone(404), anonymous: 401 } },
  ],
  "routes/site-images.$name.ts": () => [
    { method: "GET", path: `/site-images/${"0".repeat(16)}.webp`, expect: everyone(404) },
  ],
  "routes/api.placement.offers.$id.file.ts": (ids) => [
    {
      method: "GET",
      path: `/api/placement/offers/${ids.applicationA}/file`,
      expect: { anonymous: 401, learnerA: "ok", learnerB: 404, staff: "ok", admin: "ok" },
    },
  ],
  "routes/staff.documents.tsx": () => [
    { method: "GET", path: "/staff/documents", expect: adminPage },
    intentProbe(
      "/staff/documents",
      { intent: "save-document-settings", signatoryName: "Probe Signatory", signatoryTitle: "Director" },
      adminOnly,
    ),
  ],
  "routes/staff.documents.sample.ts": () => [
    {
      method: "POST",
      path: "/staff/documents/sample",
      body: new URLSearchParams({ kind: "certificate", signatoryName: "Probe", signatoryTitle: "Director" }).toString(),
      expect: adminOnly,
    },
  ],
  "routes/staff.site.tsx": () => [
    { method: "GET", path: "/staff/site", expect: adminPage },
    // A partner nobody added: the admin is told it is gone (404); everyone else is refused first.
    intentProbe(
      "/staff/site",
      { intent: "delete-partner", id: "00000000-0000-4000-8000-000000000000" },
      { ...adminOnly, admin: 404 },
    ),
  ],
  "routes/staff.courses.tsx": () => [
    { method: "GET", path: "/staff/courses", expect: adminPage },
    // A course and an option nobody made: the admin is told they are gone (404); everyone else is refused first.
    intentProbe(
      "/staff/courses",
      { intent: "move-course", slug: "no-such-course", direction: "up" },
      {
        ...adminOnly,
        admin: 404,
      },
    ),
    intentProbe(
      "/staff/courses",
      { intent: "remove-sign-up-option", label: "No such course" },
      {
        ...adminOnly,
        admin: 404,
      },
    ),
  ],
  "routes/verify.tsx": () => [{ method: "GET", path: "/verify", expect: everyone("ok") }],
  // A code of the right form that names no document: the same 404 for everyone.
  "routes/verify.$code.tsx": () => [{ method: "GET", path: "/verify/UPS-0000-0000-0000-0000", expect: everyone(404) }],
  "routes/staff.people.tsx": (ids) => [
    { method: "GET", path: "/staff/people?q=a", expect: staffPage },
    ...staffIntentProbes("/staff/people", ids),
  ],
  "routes/staff.learners.csv.ts": (ids) => [
    { method: "GET", path: "/staff/learners.csv?q=a", expect: staffOnly },
    // The ticked learners' export: their ids posted (too many for an address).
    {
      method: "POST",
      path: "/staff/learners.csv",
      body: new URLSearchParams({ learnerIds: ids.learnerA }).toString(),
      expect: staffOnly,
    },
  ],
  "routes/staff.enquiries.tsx": (ids) => [
    { method: "GET", path: "/staff/enquiries?status=new&page=2", expect: staffPage },
    ...staffIntentProbes("/staff/enquiries", ids),
  ],
  "routes/staff.outcomes.tsx": () => [{ method: "GET", path: "/staff/outcomes", expect: staffPage }],
  "routes/staff.fees.tsx": () => [{ method: "GET", path: "/staff/fees", expect: staffPage }],
  "routes/staff.fees.csv.ts": () => [{ method: "GET", path: "/staff/fees.csv", expect: staffOnly }],
  "routes/outcomes.tsx": () => [{ method: "GET", path: "/outcomes", expect: everyone("ok") }],
  "routes/staff.import.tsx": () => [
    { method: "GET", path: "/staff/import", expect: adminPage },
    // A dry run nobody made: the admin is told it is gone (404); everyone else is refused first.
    intentProbe("/staff/import", { intent: "import", run: "x".repeat(32) }, { ...adminOnly, admin: 404 }),
    intentProbe("/staff/import", { intent: "no-such-intent" }, adminOnly),
  ],
  "routes/staff.import.template.csv.ts": () => [
    { method: "GET", path: "/staff/import/template.csv", expect: adminOnly },
  ],
  "routes/staff.import.$id.failed.csv.ts": () => [
    { method: "GET", path: `/staff/import/${"x".repeat(32)}/failed.csv`, expect: { ...adminOnly, admin: 404 } },
  ],
  "routes/healthz.ts": () => [{ method: "GET", path: "/healthz", expect: everyone("ok") }],
  "routes/readyz.ts": () => [{ method: "GET", path: "/readyz", expect: everyone("ok") }],
  // The probes come from this machine, where /metrics needs no token; its refusals (from
  // elsewhere, through a proxy, a wrong token) are in readiness-metrics.test.ts and storage-metrics.spec.ts.
  "routes/metrics.ts": () => [{ method: "GET", path: "/metrics", expect: everyone("ok") }],
  "routes/api.auth.$.ts": () => [
    { method: "GET", path: "/api/auth/get-session", expect: everyone("ok") },
    { method: "POST", path: "/api/auth/update-user", body: { name: "Probe" }, expect: signedIn },
  ],
  "routes/reset-password.tsx": () => [{ method: "GET", path: "/reset-password?token=x", expect: everyone("ok") }],
  // Unsubscribe links act without a session; a link nobody signed is refused for its input.
  "routes/unsubscribe.tsx": () => [
    { method: "GET", path: "/unsubscribe?token=x", expect: everyone("ok") },
    { method: "POST", path: "/unsubscribe?token=x", body: "List-Unsubscribe=One-Click", expect: everyone("ok") },
  ],
  "routes/account-deleted.tsx": () => [{ method: "GET", path: "/account-deleted", expect: everyone("ok") }],
  // Only ever the caller's own data: no id is taken.
  "routes/api.my-data.ts": () => [{ method: "GET", path: "/api/my-data", expect: signedIn }],
  "routes/api.learner.resume.upload.$.ts": (ids) => {
    // Someone else's upload answers exactly like a missing one.
    const aOnly: Record<Caller, Outcome> = { ...everyone(404), anonymous: 401, learnerA: "ok" };
    const upload = `/api/learner/resume/upload/${ids.uploadA}`;
    return [
      { method: "HEAD", path: upload, expect: aOnly },
      { method: "PATCH", path: upload, expect: aOnly },
      { method: "DELETE", path: upload, expect: aOnly },
    ];
  },
  "routes/api.learner.resume.ts": (ids) => [
    // Someone else's resume: staff may download it, another learner gets "no resume".
    {
      method: "GET",
      path: `/api/learner/resume?learner=${ids.learnerA}`,
      expect: { anonymous: 401, learnerA: "ok", learnerB: 404, staff: "ok", admin: "ok" },
    },
    {
      method: "HEAD",
      path: `/api/learner/resume?learner=${ids.learnerA}`,
      expect: { anonymous: 401, learnerA: "ok", learnerB: 404, staff: "ok", admin: "ok" },
    },
  ],
  "routes/api.learner.photo.ts": () => [
    { method: "POST", path: "/api/learner/photo", body: "not an image", expect: signedIn },
  ],
  // Photos are served by their unguessable name alone (image tags); a wrong name is 404 for all.
  "routes/api.learner.photos.$name.ts": (ids) => [
    { method: "GET", path: `/api/learner/photos/${ids.photoA}`, expect: everyone("ok") },
    { method: "GET", path: `/api/learner/photos/${"0".repeat(32)}.webp`, expect: everyone(404) },
  ],
  // A document's PDF: its holder and staff only (tests/server/documents-issue.test.ts); a code that
  // names none, or is no code, is the same 404 for everyone, signed in or not.
  "routes/api.documents.$code.pdf.ts": () => [
    { method: "GET", path: "/api/documents/UPS-0000-0000-0000-0000/pdf", expect: everyone(404) },
    { method: "GET", path: "/api/documents/not-a-code/pdf", expect: everyone(404) },
  ],
  "routes/api.events.ts": () => [{ method: "GET", path: "/api/events", expect: signedIn }],
  // The enquiry form's signed time: for anyone who fills the public form.
  "routes/api.enquiry-time.ts": () => [{ method: "GET", path: "/api/enquiry-time", expect: everyone("ok") }],
  "routes/robots.ts": () => [{ method: "GET", path: "/robots.txt", expect: everyone("ok") }],
  "routes/sitemap.ts": () => [{ method: "GET", path: "/sitemap.xml", expect: everyone("ok") }],
  "routes/well-known.jwks.ts": () => [{ method: "GET", path: "/.well-known/jwks.json", expect: everyone("ok") }],
  "routes/well-known.did.ts": () => [{ method: "GET", path: "/.well-known/did.json", expect: everyone("ok") }],
  // An unknown code: not found for everyone (counted as a wrong guess).
  "routes/verify.$code.credential.ts": () => [
    { method: "GET", path: "/verify/UPS-0000-0000-0000-0000/credential.json", expect: everyone(404) },
  ],
  "routes/credentials.status.1.ts": () => [{ method: "GET", path: "/credentials/status/1", expect: everyone("ok") }],
  "routes/not-found.tsx": () => [{ method: "GET", path: "/no-such-page", expect: everyone(404) }],
};

interface Ids {
  learnerA: string;
  learnerB: string;
  /** One of learner A's task links. */
  taskLinkA: string;
  /** Learner A's unfinished resume upload. */
  uploadA: string;
  /** Learner A's photo, by its public name. */
  photoA: string;
  /** Learner A's job application, with an offer letter. */
  applicationA: string;
}

/** The settings page's intents (`case "…"` in settings-page.server.ts). */
const settingsIntents = ["update-profile", "change-password", "save-email-preferences", "delete-account"];

/** The dashboard's intents (`case "…"` in dashboard-page.server.ts). */
const dashboardIntents = [
  "add-task-link",
  "delete-task-link",
  "delete-resume",
  "mark-read",
  "delete-photo",
  "answer-offer",
  "submit-assignment",
  "reply-assignment",
];

function dashboardProbes(ids: Ids): Probe[] {
  return [
    { method: "GET", path: "/dashboard?show=notices&pages=2", expect: { ...everyone("ok"), anonymous: "redirect" } },
    intentProbe("/dashboard", { intent: "add-task-link", link: "https://example.com/probe" }, signedIn),
    // Names learner A's link: for everyone else it names nothing of theirs (checked below).
    intentProbe("/dashboard", { intent: "delete-task-link", id: ids.taskLinkA }, signedIn),
    intentProbe(
      "/dashboard",
      { intent: "mark-read", kind: "task", ids: "00000000-0000-0000-0000-000000000000" },
      signedIn,
    ),
    // An offer letter that is nobody's: not found for everyone signed in.
    intentProbe(
      "/dashboard",
      { intent: "answer-offer", documentId: "00000000-0000-0000-0000-000000000000", answer: "accepted" },
      { ...everyone(404), anonymous: 401 },
    ),
    // An assignment that is nobody's: not found for everyone signed in.
    intentProbe(
      "/dashboard",
      {
        intent: "submit-assignment",
        assignmentId: "00000000-0000-0000-0000-000000000000",
        link: "https://example.com/x",
      },
      { ...everyone(404), anonymous: 401 },
    ),
    intentProbe(
      "/dashboard",
      { intent: "reply-assignment", assignmentId: "00000000-0000-0000-0000-000000000000", body: "Probe" },
      { ...everyone(404), anonymous: 401 },
    ),
    intentProbe("/dashboard", { intent: "no-such-intent" }, signedIn),
  ];
}

function settingsProbes(ids: Ids): Probe[] {
  return [
    { method: "GET", path: "/settings", expect: { ...everyone("ok"), anonymous: "redirect" } },
    // Names learner A: for everyone it changes only their own row (checked below).
    intentProbe(
      "/settings",
      { intent: "update-profile", learnerId: ids.learnerA, phone: "9123456789", course: "Java" },
      signedIn,
    ),
    // A wrong current password: refused for its input (400), past the gate.
    intentProbe(
      "/settings",
      {
        intent: "change-password",
        currentPassword: "not-the-password",
        newPassword: "probe-new-password-2",
        confirmPassword: "probe-new-password-2",
      },
      signedIn,
    ),
    intentProbe(
      "/settings",
      {
        intent: "save-email-preferences",
        learnerId: ids.learnerA,
        notice: "off",
        task: "off",
        certificate: "off",
        document: "off",
      },
      signedIn,
    ),
    // A wrong password: refused for its input (400), past the gate; nobody's account goes.
    intentProbe(
      "/settings",
      { intent: "delete-account", password: "not-the-password", confirmation: "DELETE" },
      signedIn,
    ),
    intentProbe("/settings", { intent: "no-such-intent" }, signedIn),
  ];
}

/** Every staff intent, with fields naming learner A (or B for a role), as its form sends them. */
function staffIntentProbes(path: string, ids: Ids): Probe[] {
  return Object.entries(staffIntents).map(([intent, definition]) =>
    intentProbe(
      path,
      {
        intent,
        learnerId: ids.learnerA,
        kind: "notice",
        html: "",
        search: "",
        course: "",
        expectedCount: "0",
        userId: ids.learnerB,
        role: "",
      },
      // Past the gate, deleting an item that does not exist is a 404.
      definition.need === "admin"
        ? intent === "delete-message"
          ? { ...adminOnly, admin: 404 }
          : adminOnly
        : staffOnly,
    ),
  );
}

function classify(status: number): Outcome | `unexpected ${number}` {
  if (status === 401 || status === 403 || status === 404) return status;
  if (status >= 300 && status < 400) return "redirect";
  if (status >= 500) return `unexpected ${status}`;
  return "ok";
}

for (const dialect of ["sqlite", "postgres"] as ProbeDialect[]) {
  test.describe(`security probes [${dialect}]`, () => {
    test.skip(dialect === "postgres" && !hasPostgres, "PostgreSQL pass skipped: TEST_DATABASE_URL is not set");
    let server: ProbeServer;
    let accounts: Record<Exclude<Caller, "anonymous">, Account>;
    let ids: Ids;

    test.beforeAll(async () => {
      server = await startProbeServer(dialect);
      accounts = {
        learnerA: await server.signUp("LearnerA"),
        learnerB: await server.signUp("LearnerB"),
        staff: await server.signUp("Trainer"),
        admin: await server.signUp("Admin"),
      };
      await server.setRole(accounts.staff, "trainer");
      await server.setRole(accounts.admin, "admin");
      ids = await prepareLearnerA(server, accounts.learnerA, accounts.learnerB);
    });
    test.afterAll(async () => {
      await server?.stop();
    });

    const send = (caller: Caller, probe: Pick<Probe, "method" | "path" | "body">, origin?: string) =>
      fetch(`${server.url}${probe.path}`, {
        method: probe.method,
        redirect: "manual",
        headers: {
          ...(caller === "anonymous" ? {} : { cookie: accounts[caller].cookie }),
          ...(probe.method === "GET" || probe.method === "HEAD" ? {} : { origin: origin ?? server.url }),
          ...(probe.path.includes("/resume/upload/")
            ? { "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" }
            : {}),
          ...(probe.body === undefined
            ? {}
            : {
                "content-type":
                  typeof probe.body === "string" ? "application/x-www-form-urlencoded" : "application/json",
              }),
        },
        body:
          probe.body === undefined
            ? undefined
            : typeof probe.body === "string"
              ? probe.body
              : JSON.stringify(probe.body),
        signal: AbortSignal.timeout(10_000),
      });

    test("the dashboard's explicit list names every intent its action handles", () => {
      const source = fs.readFileSync(path.join(root, "app/dashboard/dashboard-page.server.ts"), "utf8");
      const handled = [...source.matchAll(/case "([a-z-]+)":/g)].map((m) => m[1]);
      expect(handled.sort()).toEqual([...dashboardIntents].sort());
    });

    test("the settings page's explicit list names every intent its action handles", () => {
      const source = fs.readFileSync(path.join(root, "app/dashboard/settings-page.server.ts"), "utf8");
      const handled = [...source.matchAll(/case "([a-z-]+)":/g)].map((m) => m[1]);
      expect(handled.sort()).toEqual([...settingsIntents].sort());
    });

    test("every route and endpoint answers each kind of caller as its table says", async () => {
      const files = routes.map((route) => route.file);
      const unclassified = files.filter((file) => !(file in routeProbes));
      expect(unclassified, "routes with no probe: add them to routeProbes").toEqual([]);

      const mismatches: string[] = [];
      let probed = 0;
      for (const file of files) {
        // Each route starts with a fresh budget of changes: the suite sends each person more
        // changes than a minute allows (the budget has tests of its own), and a 429 hides the gate.
        await server.query(`delete from rate_limit where "key" like '%-write:%'`);
        for (const probe of routeProbes[file]!(ids)) {
          // Destructive probes (deleting A's link, upload or resume) run for learner A last.
          for (const caller of ["anonymous", "learnerB", "staff", "admin", "learnerA"] as Caller[]) {
            const response = await send(caller, probe);
            if (probe.path === "/api/events") await response.body?.cancel();
            else await response.arrayBuffer();
            probed++;
            const got = classify(response.status);
            if (got !== probe.expect[caller]) {
              mismatches.push(
                `${probe.method} ${probe.path} as ${caller}: ${response.status}, expected ${probe.expect[caller]}`,
              );
            }
          }
        }
      }
      expect(mismatches).toEqual([]);
      expect(probed).toBeGreaterThan(150);
      // Learner B, staff and admin named A's link before A did: only A's own request removed it.
      const left = await server.query<{ n: number }>(
        `select count(*) as n from "task_link" where "id" = '${ids.taskLinkA}'`,
      );
      expect(Number(left[0]!.n)).toBe(0);
    });

    test("every address with a parameter refuses a value no record can have, never fails", async () => {
      // From the route table, so a new route with a parameter is probed too. A NUL is refused by
      // PostgreSQL outright, an over-long value by indexes, a broken escape by the URL decoder.
      const withParameter = routes.filter((route) => route.path && /(^|\/)(:|\*)/.test(route.path));
      expect(withParameter.length).toBeGreaterThan(10);
      const values = ["%00", "a%00b", "%E0%A4%A", "%C0%AF", "x".repeat(3000)];
      const failures: string[] = [];
      let probed = 0;
      for (const route of withParameter) {
        for (const value of values) {
          const path = `/${route.path!.replace(/:[A-Za-z]+|\*/g, value)}`;
          // A page also answers its loader data at `.data`.
          const paths = route.file.endsWith(".tsx") ? [path, `${path}.data`] : [path];
          for (const address of paths) {
            for (const caller of ["anonymous", "learnerA", "admin"] as Caller[]) {
              const response = await send(caller, { method: "GET", path: address });
              await response.arrayBuffer();
              probed++;
              if (response.status >= 500) failures.push(`GET ${address.slice(0, 80)} as ${caller}: ${response.status}`);
            }
          }
        }
      }
      expect(failures).toEqual([]);
      expect(probed).toBeGreaterThan(200);
    });

    test("every address's query refuses a value no record can have, never fails", async () => {
      // The names the app reads from a query: its schemas' fields, and what the code reads by name.
      const source = sourceFiles(path.join(root, "app")).map((file) => fs.readFileSync(file, "utf8"));
      const read = source.flatMap((text) => [...text.matchAll(/searchParams\.(?:get|has)\("([a-zA-Z]+)"\)/g)]);
      const names = new Set([
        ...read.map((match) => match[1]!),
        ...[searchSchema, inboxSearchSchema, auditQuerySchema].flatMap((schema) => Object.keys(schema.shape)),
      ]);
      expect(names.size).toBeGreaterThan(20);
      const pages = routes.filter((route) => route.path !== undefined && !/[:*]/.test(route.path));
      const addresses = [{ path: "" }, ...pages].flatMap((route) =>
        [...names].map((name) => `/${route.path}?${name}=a%00b`),
      );
      const failures: string[] = [];
      // An admin reaches every page (a learner's too); eight at a time, as a busy hour would send them.
      const next = addresses.entries();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (const [, address] of next) {
            const response = await send("admin", { method: "GET", path: address });
            if (address.startsWith("/api/events?")) await response.body?.cancel();
            else await response.arrayBuffer();
            if (response.status >= 500) failures.push(`GET ${address.slice(0, 80)}: ${response.status}`);
          }
        }),
      );
      expect(failures).toEqual([]);
      expect(addresses.length).toBeGreaterThan(500);
    });

    test("another user's ids in a learner's intents change nothing of the learner's", async () => {
      const [row] = await server.query<{ id: string }>(
        `select "id" from "task_link" where "learnerId" = '${ids.learnerA}' order by "createdAt" desc`,
      );
      expect(row).toBeDefined();
      for (const caller of ["learnerB", "staff", "admin"] as const) {
        const response = await send(
          caller,
          intentProbe("/dashboard", { intent: "delete-task-link", id: row!.id }, signedIn),
        );
        await response.arrayBuffer();
        expect(response.status).toBe(200);
      }
      const still = await server.query<{ n: number }>(
        `select count(*) as n from "task_link" where "id" = '${row!.id}'`,
      );
      expect(Number(still[0]!.n)).toBe(1);
      const filesOfA = async () =>
        Promise.all(
          ["resume", "profile_photo"].map(async (table) =>
            Number(
              (
                await server.query<{ n: number }>(
                  `select count(*) as n from "${table}" where "learnerId" = '${ids.learnerA}'`,
                )
              )[0]!.n,
            ),
          ),
        );
      const [profileOfA] = await server.query(`select "phone", "course" from "user" where "id" = '${ids.learnerA}'`);
      const before = await filesOfA();
      expect(before[1]).toBe(1);
      const namingA: Record<string, string>[] = [
        { intent: "delete-resume", learnerId: ids.learnerA },
        { intent: "delete-photo", learnerId: ids.learnerA },
        { intent: "update-profile", learnerId: ids.learnerA, userId: ids.learnerA, phone: "9000000000", course: "VFX" },
      ];
      for (const caller of ["learnerB", "staff", "admin"] as const) {
        for (const fields of namingA) {
          const page = settingsIntents.includes(fields.intent!) ? "/settings" : "/dashboard";
          const response = await send(caller, intentProbe(page, fields, signedIn));
          await response.arrayBuffer();
          expect(response.status, `${fields.intent} as ${caller}`).toBe(200);
        }
      }
      expect(await filesOfA()).toEqual(before);
      expect((await server.query(`select "phone", "course" from "user" where "id" = '${ids.learnerA}'`))[0]).toEqual(
        profileOfA,
      );
      // Learner A's unread notice and offer letter, named by everyone else, stay unread.
      const noticeId = randomUUID();
      const written = "2026-01-01T00:00:00.000Z";
      await server.query(
        `insert into "message" ("id", "learnerId", "kind", "body", "sentBy", "sentAt", "readAt") values ('${noticeId}', '${ids.learnerA}', 'notice', '<p>For A</p>', null, '${written}', null)`,
      );
      await server.query(
        `insert into "offer_letter" ("learnerId", "body", "updatedBy", "updatedAt", "readAt") values ('${ids.learnerA}', '<p>Offer for A</p>', null, '${written}', null) on conflict ("learnerId") do update set "updatedAt" = '${written}', "readAt" = null`,
      );
      for (const caller of ["learnerB", "staff", "admin"] as const) {
        for (const [kind, shown] of [
          ["notice", noticeId],
          ["offer", written],
        ]) {
          const response = await send(
            caller,
            intentProbe(
              "/dashboard",
              { intent: "mark-read", kind: kind!, ids: shown!, learnerId: ids.learnerA },
              signedIn,
            ),
          );
          await response.arrayBuffer();
          expect(response.status).toBe(200);
        }
      }
      const unread = await server.query<{ n: number }>(
        `select (select count(*) from "message" where "id" = '${noticeId}' and "readAt" is null) + (select count(*) from "offer_letter" where "learnerId" = '${ids.learnerA}' and "readAt" is null) as n`,
      );
      expect(Number(unread[0]!.n)).toBe(2);
    });

    test("a state-changing request from another origin is refused and changes nothing", async () => {
      const tables = ["user", "session", "message", "task_link", "staff_audit", "offer_letter", "profile_photo"];
      const counts = async () =>
        Promise.all(
          tables.map(async (t) =>
            Number((await server.query<{ n: number }>(`select count(*) as n from "${t}"`))[0]!.n),
          ),
        );
      const before = await counts();
      const stateChanging: Probe[] = Object.values(routeProbes)
        .flatMap((probes) => probes(ids))
        .filter((p) => p.method !== "GET" && p.method !== "HEAD");
      stateChanging.push(
        {
          method: "POST",
          path: "/api/auth/sign-up/email",
          body: {
            username: "x",
            phone: "9876543210",
            course: "Python",
            gender: "male",
            email: "evil@example.com",
            password: "p-12345678",
            confirmPassword: "p-12345678",
          },
          expect: everyone(403),
        },
        {
          method: "POST",
          path: "/api/auth/sign-in/email",
          body: { email: accounts.learnerA.email, password: "probe-password-1" },
          expect: everyone(403),
        },
        { method: "POST", path: "/api/auth/sign-out", body: {}, expect: everyone(403) },
        {
          method: "POST",
          path: "/api/auth/request-password-reset",
          body: { email: accounts.learnerA.email },
          expect: everyone(403),
        },
        intentProbe(
          "/staff",
          { intent: "send", learnerId: ids.learnerA, kind: "notice", html: "<p>evil</p>" },
          everyone(403),
        ),
        intentProbe(
          "/staff",
          { intent: "save-offer-letter", learnerId: ids.learnerA, html: "<p>evil</p>" },
          everyone(403),
        ),
        intentProbe("/staff", { intent: "change-role", userId: ids.learnerB, role: "admin" }, everyone(403)),
        intentProbe("/dashboard", { intent: "add-task-link", link: "https://evil.example" }, everyone(403)),
        intentProbe("/dashboard", { intent: "delete-photo" }, everyone(403)),
        // The right current password: it would end every other session (the session count shows it didn't).
        intentProbe(
          "/settings",
          {
            intent: "change-password",
            currentPassword: "probe-password-1",
            newPassword: "evil-password-1",
            confirmPassword: "evil-password-1",
          },
          everyone(403),
        ),
        // A plain form post to the page itself (no script), as another site's form would.
        {
          method: "POST",
          path: "/dashboard",
          body: "intent=add-task-link&link=https://evil.example",
          expect: everyone(403),
        },
        {
          method: "POST",
          path: "/reset-password?token=x",
          body: "password=a-12345678&confirmPassword=a-12345678",
          expect: everyone(403),
        },
      );
      const refusals: string[] = [];
      for (const origin of ["https://evil.example", "null", `${server.url}.evil.test`]) {
        for (const probe of stateChanging) {
          for (const caller of ["learnerA", "admin"] as const) {
            const response = await send(caller, probe, origin);
            await response.arrayBuffer();
            // 403 from our checks; React Router refuses a cross-origin form post to a page with 400.
            if (response.status !== 403 && response.status !== 400)
              refusals.push(`${probe.method} ${probe.path} as ${caller} from ${origin}: ${response.status}`);
          }
        }
      }
      expect(refusals).toEqual([]);
      expect(await counts()).toEqual(before);
    });
  });
}

/** Gives learner A a resume, a photo, a task link and an unfinished upload to probe for. */
async function prepareLearnerA(server: ProbeServer, learnerA: Account, learnerB: Account): Promise<Ids> {
  const as = (cookie: string, init: RequestInit & { headers?: Record<string, string> }) => ({
    ...init,
    headers: { cookie, origin: server.url, ...init.headers },
  });
  const resume = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(2000, 0x20)]);
  const done = await fetch(
    `${server.url}/api/learner/resume/upload`,
    as(learnerA.cookie, {
      method: "POST",
      headers: {
        "tus-resumable": "1.0.0",
        "upload-length": String(resume.length),
        "upload-metadata": `filename ${Buffer.from("cv.pdf").toString("base64")}`,
        "content-type": "application/offset+octet-stream",
      },
      body: new Uint8Array(resume),
    }),
  );
  expect(done.status).toBe(201);
  const unfinished = await fetch(
    `${server.url}/api/learner/resume/upload`,
    as(learnerA.cookie, {
      method: "POST",
      headers: {
        "tus-resumable": "1.0.0",
        "upload-length": "5000",
        "upload-metadata": `filename ${Buffer.from("next.pdf").toString("base64")}`,
      },
    }),
  );
  expect(unfinished.status).toBe(201);
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#0a0" } })
    .png()
    .toBuffer();
  const photo = await fetch(
    `${server.url}/api/learner/photo`,
    as(learnerA.cookie, { method: "POST", headers: { "content-type": "image/png" }, body: new Uint8Array(png) }),
  );
  expect(photo.status).toBe(200);
  const link = await fetch(
    `${server.url}/dashboard.data`,
    as(learnerA.cookie, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "intent=add-task-link&link=https%3A%2F%2Fexample.com%2Fa",
    }),
  );
  expect(link.status).toBe(200);
  const [taskLink] = await server.query<{ id: string }>(
    `select "id" from "task_link" where "learnerId" = '${learnerA.id}'`,
  );
  const application = await fetch(
    `${server.url}/placement.data`,
    as(learnerA.cookie, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "intent=add-application&company=Acme&role=Developer&source=own",
    }),
  );
  expect(application.status).toBe(200);
  const [applicationA] = await server.query<{ id: string }>(
    `select "id" from "job_application" where "learnerId" = '${learnerA.id}'`,
  );
  const offer = new FormData();
  for (const [name, value] of Object.entries({
    intent: "record-offer",
    applicationId: applicationA!.id,
    fixedCtc: "600000",
    location: "Pune",
    offerDate: "2026-01-01",
    joiningDate: "2026-02-01",
  })) {
    offer.set(name, value);
  }
  offer.set("offerLetter", new Blob([new Uint8Array(minimalPdf())]), "offer.pdf");
  const recorded = await fetch(`${server.url}/placement.data`, as(learnerA.cookie, { method: "POST", body: offer }));
  expect(recorded.status).toBe(200);
  return {
    learnerA: learnerA.id,
    learnerB: learnerB.id,
    taskLinkA: taskLink!.id,
    uploadA: unfinished.headers.get("location")!.split("/").pop()!,
    photoA: ((await photo.json()) as { photoUrl: string }).photoUrl.split("/").pop()!,
    applicationA: applicationA!.id,
  };
}

/** The TypeScript files under a folder, at any depth. */
function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(folder, file));
}
