import AxeBuilder from "@axe-core/playwright";
import { test as base, type Page } from "@playwright/test";
import { noteDataDir } from "../support/data-dir-note";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { agedEnquiryFormTime, expect, newPerson } from "./fixtures";

// Its own server, so that the enquiry emails go to this test's SMTP server and the per-IP limit
// (every browser here is 127.0.0.1) counts only these tests' enquiries.
const test = base.extend({});
test.describe.configure({ mode: "serial" });
let smtp: TestSmtp;
let server: ServerProcess;
let forgetDataDir: (() => void) | undefined;
const office = "office@institute.example";

test.beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServerProcess({ SMTP_URL: smtp.url, SITE_EMAIL: office, AUTH_RATE_LIMIT: "100" });
  // setRole finds the server's database through this note, as for the shared e2e server.
  forgetDataDir = noteDataDir(server);
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  forgetDataDir?.();
});

const fill = async (page: Page, name: string) => {
  const form = page.getByRole("region", { name: "Send us an enquiry" });
  await form.getByLabel("Your name").fill(name);
  await form.getByLabel("Phone (10 digits)").fill("9876543210");
  await form.getByLabel("Email (optional)").fill("meera@example.com");
  await form.getByLabel("Course of interest").selectOption("Web Development");
  await form.getByLabel("Your message").fill("Is there an evening batch?");
  await form.getByLabel("Best time to call you back").selectOption({ label: "Evening (4 pm to 8 pm)" });
  return form;
};

const axeAtBothWidths = async (page: Page, what: string) => {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    expect((await new AxeBuilder({ page }).analyze()).violations, `axe on ${what} at ${width} px`).toEqual([]);
  }
};

test("an enquiry from the landing page reaches the staff inbox and the mail sink; staff work it", async ({
  browser,
}) => {
  const visitor = await browser.newContext({ baseURL: server.url });
  const page = await visitor.newPage();
  await page.goto("/");
  // The landing page is lean: no React, the form is plain HTML timed by the page's own script,
  // which fetches a signed time when the visitor first touches the form.
  expect(await page.locator("script[src]").count()).toBe(0);
  const touched = Date.now();
  const formTime = page.waitForResponse((response) => response.url().endsWith("/api/enquiry-time"));
  const form = await fill(page, "Meera Kulkarni");
  expect((await formTime).status()).toBe(200);
  await axeAtBothWidths(page, "/ with the form");
  // A person takes longer than the minimum fill time: one press of Send, no check step.
  await page.waitForTimeout(Math.max(0, 3_200 - (Date.now() - touched)));
  await form.getByRole("button", { name: "Send enquiry" }).click();
  await expect(page.getByRole("status")).toHaveText(/Thank you, Meera Kulkarni\. We have your enquiry/);
  await axeAtBothWidths(page, "/ after sending");
  await visitor.close();

  await expect.poll(() => smtp.mails.filter((mail) => mail.to.includes(office)).length, { timeout: 20_000 }).toBe(1);
  const mail = smtp.mails.find((m) => m.to.includes(office))!;
  expect(mail.parsed.subject).toBe("New enquiry from Meera Kulkarni: Web Development");
  expect(mail.parsed.text).toContain("Is there an evening batch?");

  const staff = await newPerson(browser, server.url, "Inbox", { role: "mentor" });
  const inbox = staff.page;
  await inbox.goto("/staff");
  const header = inbox.getByRole("navigation", { name: "Signed in" });
  await expect(header.getByRole("link", { name: "Enquiries 1 new" })).toBeVisible();
  await header.getByRole("link", { name: /Enquiries/ }).click();
  await expect(inbox.getByRole("heading", { name: "Enquiries", level: 1 })).toBeVisible();
  await inbox.getByRole("link", { name: /Meera Kulkarni/ }).click();
  await expect(inbox).toHaveURL(/selected=/);
  await expect(inbox.getByRole("heading", { name: "Meera Kulkarni" })).toBeVisible();
  await expect(inbox.getByText("Evening (4 pm to 8 pm)")).toBeVisible();
  await expect(inbox.locator("main[data-live=connected]")).toBeVisible();

  await inbox.getByLabel("Status", { exact: true }).selectOption("contacted");
  await inbox.getByRole("button", { name: "Save status" }).click();
  await expect(inbox.getByTestId("toast-status")).toHaveText("Marked Contacted.");
  await inbox.getByLabel("Add a note").fill("Called; wants the Saturday batch.");
  await inbox.getByRole("button", { name: "Add note" }).click();
  await expect(inbox.getByTestId("toast-status")).toHaveText("Note added.");
  const history = inbox.getByRole("list", { name: "Who changed what" });
  await expect(history.getByTestId("enquiry-history")).toHaveCount(2);
  await expect(history).toContainText(`${staff.account.username} marked it Contacted`);
  await expect(history).toContainText("Called; wants the Saturday batch.");
  await expect(header.getByRole("link", { name: "Enquiries", exact: true })).toBeVisible();

  await inbox.getByRole("button", { name: "Invite to sign up" }).click();
  await expect(inbox.getByTestId("toast-status")).toHaveText("Sign-up invitation queued for meera@example.com.");
  await expect
    .poll(() => smtp.mails.filter((m) => m.to.includes("meera@example.com")).length, { timeout: 20_000 })
    .toBe(1);
  expect(smtp.mails.find((m) => m.to.includes("meera@example.com"))!.parsed.text).toContain(
    `${server.url}/?auth=signup`,
  );
  await axeAtBothWidths(inbox, "/staff/enquiries");

  // A new enquiry shows in the open inbox and the header's count without a reload.
  const posted = await inbox.request.post(`${server.url}/contact`, {
    headers: { origin: server.url },
    form: {
      intent: "enquiry",
      website: "",
      formTime: await agedEnquiryFormTime(inbox.request, server.url),
      name: "Live Arrival",
      phone: "9123456780",
      email: "",
      course: "Not sure yet",
      message: "Weekend batches?",
      callbackTime: "any",
    },
  });
  expect(posted.status()).toBe(200);
  await expect(header.getByRole("link", { name: "Enquiries 1 new" })).toBeVisible();
  await expect(inbox.getByRole("link", { name: /Live Arrival/ })).toBeVisible();
  await staff.context.close();
});

test("a bot-fast submission is refused with a clear message, and a filled honeypot too", async ({ browser }) => {
  const visitor = await browser.newContext({ baseURL: server.url });
  const page = await visitor.newPage();
  await page.goto("/contact");
  const form = await fill(page, "Speedy Bot");
  await form.getByRole("button", { name: "Send enquiry" }).click();
  await expect(page.getByRole("alert")).toHaveText(/faster than a person types/);
  // What was typed is still there.
  await expect(page.getByLabel("Your name")).toHaveValue("Speedy Bot");
  await axeAtBothWidths(page, "/contact refused");
  // The honeypot, filled in as a bot fills every field it finds.
  await page.locator("input[name=website]").fill("http://spam.example", { force: true });
  await page.waitForTimeout(3_200);
  await page.getByRole("button", { name: "Send enquiry" }).click();
  await expect(page.getByRole("alert")).toHaveText(/Your enquiry was not sent/);
  await visitor.close();
  expect(smtp.mails.filter((m) => m.parsed.subject?.includes("Speedy Bot"))).toEqual([]);
});

test("with JavaScript off the enquiry form still sends: a check step, then Send", async ({ browser }) => {
  const visitor = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
  const page = await visitor.newPage();
  await page.goto("/contact");
  const form = await fill(page, "Nojs Person");
  await form.getByRole("button", { name: "Send enquiry" }).click();
  await expect(page.getByText("Please check your details, then press Send enquiry.")).toBeVisible();
  await expect(page.getByText("Nojs Person")).toBeVisible();
  // A person reads the details before pressing Send.
  await page.waitForTimeout(3_200);
  await page.getByRole("button", { name: "Send enquiry" }).click();
  await expect(page.getByText(/Thank you, Nojs Person\./)).toBeVisible();
  await visitor.close();
  await expect
    .poll(() => smtp.mails.some((m) => m.parsed.subject === "New enquiry from Nojs Person: Web Development"), {
      timeout: 20_000,
    })
    .toBe(true);

  // axe needs JavaScript: the same check step, reached with the form's timing taken away.
  const checker = await browser.newContext({ baseURL: server.url });
  const checked = await checker.newPage();
  await checked.goto("/contact");
  await checked.locator("form[data-enquiry-form]").evaluate((element) => element.removeAttribute("data-enquiry-form"));
  await fill(checked, "Axe Check");
  await checked.getByRole("button", { name: "Send enquiry" }).click();
  await expect(checked.getByText("Please check your details, then press Send enquiry.")).toBeVisible();
  await axeAtBothWidths(checked, "the check step");
  await checker.close();
});
