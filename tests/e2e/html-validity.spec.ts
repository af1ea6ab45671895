import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { test as base, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { unsubscribeKey, unsubscribeToken } from "~/mail/unsubscribe.server";
import { noteDataDir } from "../support/data-dir-note";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { agedEnquiryFormTime, expect, newPerson, signUpByApi, submitIntent, type Person } from "./fixtures";

// Every kind of page Upskill serves, as served, through the Nu HTML Checker (the W3C's
// validator, npm's vnu-jar on Debian's Java): no errors. Its own server, so that the reset link
// comes to this test's mail server and the unsubscribe link can be signed with a known secret.

const vnuJar = fileURLToPath(import.meta.resolve("vnu-jar/build/dist/vnu.jar"));
const authSecret = "html-validity-secret-of-at-least-32-characters";

const test = base.extend({});
let smtp: TestSmtp;
let server: ServerProcess;
let forgetDataDir: (() => void) | undefined;

test.beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServerProcess({ SMTP_URL: smtp.url, AUTH_SECRET: authSecret, AUTH_RATE_LIMIT: "100" });
  // Who signs documents, as an admin sets it: no certificate is issued before.
  const database = new DatabaseSync(path.join(server.dataDir, "upskill.sqlite"));
  database
    .prepare(
      `insert into document_settings (id, "signatoryName", "signatoryTitle", "updatedAt") values (1, ?, ?, ?) on conflict (id) do nothing`,
    )
    .run("Hemant Joshi", "Director", new Date().toISOString());
  database.close();
  forgetDataDir = noteDataDir(server);
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  forgetDataDir?.();
});

async function userId(page: Page): Promise<string> {
  const session = await page.request.get("/api/auth/get-session");
  return ((await session.json()) as { user: { id: string } }).user.id;
}

/** A page's HTML as the server sends it to whoever `request` is signed in as. */
async function served(request: APIRequestContext, address: string, status = 200): Promise<string> {
  const response = await request.get(address, { maxRedirects: 0 });
  expect([address, response.status()]).toEqual([address, status]);
  expect(response.headers()["content-type"]).toMatch(/^text\/html/);
  return response.text();
}

interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/** The Nu HTML Checker's errors in these files: one Java start for all of them. */
function checkHtml(files: string[]): Promise<VnuMessage[]> {
  return new Promise((resolve, reject) => {
    execFile(
      "java",
      ["-jar", vnuJar, "--errors-only", "--exit-zero-always", "--format", "json", ...files],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error) return reject(error);
        try {
          resolve((JSON.parse(stderr) as { messages: VnuMessage[] }).messages);
        } catch {
          reject(new Error(`The checker's answer is not JSON:\n${stderr}`));
        }
      },
    );
  });
}

test("every public, account, learner and staff page has no HTML errors", async ({ browser }) => {
  test.setTimeout(180_000);
  const baseURL = server.url;
  const learner = await newPerson(browser, baseURL, "Valid");
  const mentor = await newPerson(browser, baseURL, "Mentor", { role: "mentor" });
  const admin = await newPerson(browser, baseURL, "Admin", { role: "admin" });
  const learnerId = await userId(learner.page);
  const anonymous = await playwrightRequest.newContext({ baseURL });

  // Something on every page: messages, a certificate, a batch with the learner enrolled and an
  // application, an enquiry, an import's dry run.
  const staffIntent = async (who: Person, address: string, fields: Record<string, string>) => {
    const answer = await submitIntent(who.page, baseURL, address, fields);
    expect([fields.intent, answer.status, answer.data?.message]).toEqual([fields.intent, 200, answer.data?.message]);
  };
  for (const kind of ["notice", "task"]) {
    await staffIntent(admin, "/staff", {
      intent: "send",
      learnerId,
      kind,
      html: `<p>A ${kind} with <strong>bold</strong> and a <a href="https://example.com">link</a>.</p>`,
    });
  }
  await staffIntent(admin, `/staff/learners/${learnerId}`, {
    intent: "issue-certificate",
    learnerIds: learnerId,
    title: "Data Analysis with Python",
    description: "Pandas, SQL and charts, with a capstone project.",
    issuedOn: "",
    validUntil: "",
    hours: "120",
  });
  // Issued by a job: its code shows on the learner's page once it is done.
  let code = "";
  await expect
    .poll(async () => {
      code = /UPS(?:-[0-9A-Z]{4}){4}/.exec(await served(admin.page.request, `/staff/learners/${learnerId}`))?.[0] ?? "";
      return code;
    })
    .not.toBe("");
  await staffIntent(admin, "/staff/batches", {
    intent: "create-batch",
    name: "Web – Valid 2026",
    courseSlug: "web-development",
    startDate: "2026-01-05",
    endDate: "2026-06-30",
    payment: "upfront",
  });
  const batchId = /<option value="([^"]+)">Web – Valid 2026/.exec(
    await served(admin.page.request, `/staff/placement/${learnerId}`),
  )?.[1];
  expect(batchId).toBeTruthy();
  await staffIntent(admin, `/staff/placement/${learnerId}`, {
    intent: "enrol",
    learnerId,
    batchId: batchId!,
    seeking: "yes",
  });
  await staffIntent(learner, "/placement", {
    intent: "add-application",
    company: "Acme",
    role: "Developer",
    source: "own",
  });
  const enquiry = await anonymous.post("/contact", {
    headers: { origin: baseURL },
    form: {
      intent: "enquiry",
      website: "",
      formTime: await agedEnquiryFormTime(anonymous, baseURL),
      name: "Meera",
      phone: "9123456780",
      email: "",
      course: "Not sure yet",
      message: "Weekend batches?",
      callbackTime: "any",
    },
  });
  expect(enquiry.status()).toBe(200);
  const enquiryId = /[?&]selected=([^"&]+)/.exec(await served(admin.page.request, "/staff/enquiries"))?.[1];
  expect(enquiryId).toBeTruthy();
  const dryRun = await admin.page.request.post("/staff/import", {
    headers: { origin: baseURL },
    multipart: {
      intent: "dry-run",
      mode: "add",
      file: {
        name: "learners.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(
          "name,email,phone,course,gender\r\nAsha,asha@example.com,9876543210,Python,female\r\nBad,bad,1,x,y\r\n",
        ),
      },
    },
    maxRedirects: 0,
  });
  const run = new URL(dryRun.headers().location ?? "/", baseURL).searchParams.get("run");
  expect(run).toBeTruthy();

  // The links a learner gets by mail: a password reset, and an unsubscribe.
  const resetFor = await signUpByApi(await playwrightRequest.newContext(), baseURL);
  const asked = await anonymous.post("/api/auth/request-password-reset", {
    headers: { origin: baseURL },
    data: { email: resetFor.email, redirectTo: "/reset-password" },
  });
  expect(asked.status()).toBe(200);
  await expect.poll(() => smtp.mails.filter((mail) => mail.to.includes(resetFor.email)).length).toBe(1);
  const resetMail = smtp.mails.find((mail) => mail.to.includes(resetFor.email))!.parsed.text ?? "";
  const resetToken = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(resetMail)?.[1];
  expect(resetToken, resetMail).toBeTruthy();
  const unsubscribe = unsubscribeToken(unsubscribeKey(authSecret), learnerId, ["task"]);

  const pages: [APIRequestContext, string, number?][] = [
    ...[
      "/",
      "/?auth=signup",
      "/?auth=login",
      "/about",
      "/contact",
      "/PrivacyPolicy",
      "/RefundPolicy",
      "/TermsAndConditions",
      "/outcomes",
      "/verify",
      `/verify/${code}`,
      `/reset-password?token=${resetToken}`,
      "/reset-password?token=not-a-token",
      `/unsubscribe?token=${unsubscribe}`,
      "/account-deleted",
    ].map((address): [APIRequestContext, string] => [anonymous, address]),
    [anonymous, "/unsubscribe?token=not-a-token", 400],
    [anonymous, "/no-such-page", 404],
    [anonymous, "/verify/UPS-0000-0000", 404],
    ...[
      "/dashboard",
      "/dashboard?show=notices",
      "/dashboard?show=tasks",
      "/dashboard?show=certificates",
      "/placement",
      "/home",
    ].map((address): [APIRequestContext, string] => [learner.page.request, address]),
    [mentor.page.request, "/staff"],
    ...[
      "/staff",
      `/staff?selected=${learnerId}`,
      `/staff/learners/${learnerId}`,
      "/staff/audit",
      "/staff/people",
      "/staff/documents",
      "/staff/import",
      `/staff/import?run=${run}`,
      "/staff/placement",
      `/staff/placement/${learnerId}`,
      "/staff/batches",
      "/staff/outcomes",
      "/staff/fees",
      "/staff/site",
      "/staff/courses",
      "/staff/enquiries",
      `/staff/enquiries?selected=${enquiryId}`,
    ].map((address): [APIRequestContext, string] => [admin.page.request, address]),
  ];
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-html-"));
  const files = new Map<string, string>();
  try {
    for (const [index, [request, address, status]] of pages.entries()) {
      const file = path.join(directory, `${index}.html`);
      fs.writeFileSync(file, await served(request, address, status));
      files.set(`file:${file}`, address);
    }
    const errors = await checkHtml([...files.keys()].map((url) => url.slice("file:".length)));
    expect(
      errors.map((error) => `${files.get(error.url) ?? error.url}: ${error.message} [${error.extract ?? ""}]`),
    ).toEqual([]);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
    await anonymous.dispose();
    for (const person of [learner, mentor, admin]) await person.context.close();
  }
});
