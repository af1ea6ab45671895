import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import AxeBuilder from "@axe-core/playwright";
import { test as base, request as playwrightRequest } from "@playwright/test";
import { setRole } from "../support/e2e-roles";
import { noteDataDir } from "../support/data-dir-note";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { headerText, startSmtp, type ReceivedMail, type TestSmtp } from "../support/smtp";
import { expect, newPerson, submitIntent } from "./fixtures";

// Its own server, so that its mail goes to this test's SMTP server; DIGEST_HOUR=0 makes the
// day's digest due at once.
const test = base.extend({});
let smtp: TestSmtp;
let server: ServerProcess;
let forgetDataDir: (() => void) | undefined;

test.beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServerProcess({ SMTP_URL: smtp.url, DIGEST_HOUR: "0", AUTH_RATE_LIMIT: "100" });
  // setRole finds the server's database through this note, as for the shared e2e server.
  forgetDataDir = noteDataDir(server);
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  forgetDataDir?.();
});

const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.to.includes(email));
const waitForMail = async (email: string, subject: string): Promise<ReceivedMail> => {
  await expect
    .poll(() => mailsTo(email).some((mail) => mail.parsed.subject === subject), { timeout: 20_000 })
    .toBe(true);
  return mailsTo(email).find((mail) => mail.parsed.subject === subject)!;
};

test("a task is emailed at once, notices come as a daily digest, and one click unsubscribes from tasks only", async ({
  browser,
}) => {
  const base = server.url;
  const learner = await newPerson(browser, base, "Mailed");
  const admin = await newPerson(browser, base, "Sender");
  await setRole(base, admin.account.email, "admin");
  const { page } = learner;

  // The learner puts notices on the daily digest.
  await page.goto(`${base}/settings`);
  const settings = page.getByRole("region", { name: "Email notifications" });
  await expect(settings.getByLabel("Tasks")).toHaveValue("immediate");
  await settings.getByLabel("Notices").selectOption({ label: "Daily digest" });
  await settings.getByRole("button", { name: "Save email settings" }).click();
  await expect(page.getByTestId("toast-status")).toHaveText("Email settings saved.");

  const database = new DatabaseSync(path.join(server.dataDir, "upskill.sqlite"), { readOnly: true });
  const { id } = database.prepare(`select id from "user" where email = ?`).get(learner.account.email) as { id: string };
  database.close();
  for (const [kind, html] of [
    ["task", "<p>Build a <strong>portfolio</strong> page.</p>"],
    ["notice", "<p>Mock interviews on Friday.</p>"],
  ] as const) {
    const sent = await submitIntent(admin.page, base, "/staff", { intent: "send", learnerId: id, kind, html });
    expect(sent.status, sent.data?.message).toBe(200);
  }

  // The task: subject, both parts, a link to the dashboard, RFC 8058 headers.
  const task = await waitForMail(learner.account.email, "New task from Upskill");
  expect(task.parsed.html).toContain("<strong>portfolio</strong>");
  expect(task.parsed.text).toContain("Build a portfolio page.");
  expect(task.parsed.text).toContain(`${base}/dashboard?show=tasks`);
  expect(headerText(task, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
  const link = headerText(task, "List-Unsubscribe").slice(1, -1);
  expect(link.startsWith(`${base}/unsubscribe?token=`)).toBe(true);

  // The notice: no email of its own, but in the digest. A digest holds what came before its day's
  // hour, so the notice and the learner's choice are dated yesterday, as if the day had passed.
  const writable = new DatabaseSync(path.join(server.dataDir, "upskill.sqlite"));
  const yesterday = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
  writable.prepare(`update message set "sentAt" = ? where "learnerId" = ? and kind = 'notice'`).run(yesterday(25), id);
  writable.prepare(`update email_preference set "digestFrom" = ? where "learnerId" = ?`).run(yesterday(26), id);
  writable.close();
  const digest = await waitForMail(learner.account.email, "Your daily summary from Upskill: 1 new item");
  expect(digest.parsed.text).toContain("Mock interviews on Friday.");
  expect(mailsTo(learner.account.email).filter((mail) => mail.parsed.subject?.startsWith("Notice:"))).toEqual([]);

  // The mail provider's one-click POST: no session, no Origin, no page.
  const provider = await playwrightRequest.newContext();
  const oneClick = await provider.post(link, { form: { "List-Unsubscribe": "One-Click" } });
  expect(oneClick.status()).toBe(200);
  await provider.dispose();
  await page.reload();
  await expect(settings.getByLabel("Tasks")).toHaveValue("off");
  await expect(settings.getByLabel("Notices")).toHaveValue("digest");

  // The page the link opens: says so, and offers Turn off all, at both widths.
  const visitor = await browser.newContext();
  const linkPage = await visitor.newPage();
  for (const width of [1280, 375]) {
    await linkPage.setViewportSize({ width, height: 800 });
    await linkPage.goto(link);
    await expect(linkPage.getByRole("heading", { name: "Email notifications" })).toBeVisible();
    await expect(linkPage.getByText(/^Emails about tasks to m•••@example\.com are off\.$/)).toBeVisible();
    expect(await linkPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page: linkPage }).analyze()).violations).toEqual([]);
  }
  await linkPage.getByRole("button", { name: "Turn off all" }).click();
  await expect(linkPage.getByRole("status")).toHaveText(
    "Done: we won't email you about notices, tasks, certificates or documents. Emails about your account still come.",
  );
  await visitor.close();
  await page.reload();
  for (const label of ["Notices", "Tasks", "Certificates"]) {
    await expect(settings.getByLabel(label, { exact: true })).toHaveValue("off");
  }
  await page.setViewportSize({ width: 375, height: 800 });
  await settings.scrollIntoViewIfNeeded();
  await expect(settings.getByRole("button", { name: "Save email settings" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect((await new AxeBuilder({ page }).include("#email-settings-heading").analyze()).violations).toEqual([]);

  // A link someone changed does nothing.
  const forged = await playwrightRequest.newContext();
  const refused = await forged.post(`${link.slice(0, -3)}abc`, { form: { "List-Unsubscribe": "One-Click" } });
  expect(refused.status()).toBe(400);
  await forged.dispose();
  await learner.context.close();
  await admin.context.close();
});
