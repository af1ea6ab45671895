import AxeBuilder from "@axe-core/playwright";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import {
  expect,
  learnerItems,
  newAccount,
  openLive,
  pdfText,
  signUpByApi,
  test,
  userId,
  type Person,
} from "./fixtures";

// Certificates and offer letters as PDFs: issued by staff on a learner's page, downloaded,
// verified and answered by the learner in their popups; nobody else gets the PDF.

async function noSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 375] as const) {
  test(`a certificate issued on the learner's page reaches her popup as a PDF with her Devanagari name (${width} px)`, async ({
    browser,
    baseURL,
    staff,
    learner: otherLearner,
  }) => {
    // A learner whose name is written in Devanagari.
    const context = await browser.newContext({ baseURL, viewport: { width, height: 850 } });
    const page = await context.newPage();
    const base = newAccount("ananya");
    await signUpByApi(page.request, baseURL!, { ...base, username: `अनन्या शर्मा ${base.username.slice(-4)}` });
    const learnerId = await userId(page);
    await openLive(page, "/dashboard");

    await staff.page.setViewportSize({ width, height: 900 });
    await openLive(staff.page, `/staff/learners/${learnerId}`);
    await noSidewaysScroll(staff.page);
    const form = staff.page.getByRole("group", { name: "Certificate (PDF)" });
    await form.getByLabel("Title").fill("Full Stack Web Development");
    await form.getByLabel("Short description (optional)").fill("HTML, CSS, JavaScript, React and Node.js.");
    await form.getByLabel("Hours (optional)").fill("480");
    await form.getByRole("button", { name: "Issue certificate" }).click();
    await expect(staff.page.getByTestId("toast-status")).toContainText("Certificate issued to अनन्या शर्मा");
    const listed = staff.page.getByTestId("staff-document");
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText("Valid");
    await expect(form.getByLabel("Title")).toHaveValue("");
    expect((await new AxeBuilder({ page: staff.page }).analyze()).violations).toEqual([]);

    // The learner's open dashboard hears of it; the popup lists it with its code and state.
    await page.getByRole("button", { name: /^Training Certificate/ }).click();
    const dialog = page.getByRole("dialog", { name: "Training Certificates" });
    const card = dialog.getByTestId("learner-document");
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("Full Stack Web Development");
    await expect(card).toContainText("Valid");
    const code = (await card.locator("dd").first().textContent())!;
    expect(code).toMatch(/^UPS-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await expect(card.getByRole("link", { name: /^Verify/ })).toHaveAttribute("href", `${baseURL}/verify/${code}`);
    const linkedIn = new URL((await card.getByRole("link", { name: "Add to LinkedIn" }).getAttribute("href"))!);
    expect(linkedIn.searchParams.get("certId")).toBe(code);
    expect(linkedIn.searchParams.get("name")).toBe("Full Stack Web Development");
    await noSidewaysScroll(page);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // Copy verify link: on the clipboard, said in a toast.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await card.getByRole("button", { name: "Copy verify link" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Verify link copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/verify/${code}`);

    // Download PDF: a PDF whose text has her name and the code.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      card.getByRole("link", { name: /^Download PDF/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Certificate - Full Stack Web Development - ${code}.pdf`);
    const pdf = fs.readFileSync((await download.path())!);
    expect(pdf.subarray(0, 4).toString()).toBe("%PDF");
    const text = pdfText(pdf);
    expect(text).toContain("अनन्या");
    expect(text).toContain(code);
    expect(text).toContain("Full Stack Web Development");

    // Another learner and a visitor get 404; staff get the PDF.
    expect((await otherLearner.page.request.get(`/api/documents/${code}/pdf`)).status()).toBe(404);
    const visitor = await browser.newContext({ baseURL });
    expect((await visitor.request.get(`/api/documents/${code}/pdf`)).status()).toBe(404);
    await visitor.close();
    expect((await staff.page.request.get(`/api/documents/${code}/pdf`)).status()).toBe(200);
    await context.close();
  });
}

test("an offer letter issued by an admin is accepted by the learner, and staff see 'Accepted'", async ({
  learner,
  admin,
  staff,
}) => {
  const learnerId = await userId(learner.page);
  await learner.page.setViewportSize({ width: 375, height: 800 });
  await openLive(learner.page, "/dashboard");

  // Staff (not admin) have no offer letter form.
  await openLive(staff.page, `/staff/learners/${learnerId}`);
  await expect(staff.page.getByRole("group", { name: "Certificate (PDF)" })).toBeVisible();
  await expect(staff.page.getByRole("group", { name: "Offer letter (PDF)" })).toHaveCount(0);

  await openLive(admin.page, `/staff/learners/${learnerId}`);
  const form = admin.page.getByRole("group", { name: "Offer letter (PDF)" });
  await form.getByLabel("Position").fill("Junior Web Developer");
  await form.getByLabel("Start date").fill("2099-01-04");
  await form.getByLabel("Location").fill("Pune");
  await form.getByLabel("Amount in rupees").fill("25,000");
  await form.getByLabel("Reply by").fill("2099-01-01");
  await form.getByLabel("Letter text").fill("We are pleased to offer you this position.");
  await form.getByRole("button", { name: "Issue offer letter" }).click();
  await expect(admin.page.getByTestId("toast-status")).toContainText("Offer letter issued to");
  const listed = admin.page.getByTestId("staff-document");
  await expect(listed).toContainText("Awaiting reply");
  await expect(listed).toContainText("₹25,000 per month");

  await learner.page.getByRole("button", { name: /^Offer letter/ }).click();
  const dialog = learner.page.getByRole("dialog", { name: "Offer letter" });
  const card = dialog.getByTestId("learner-document");
  await expect(card).toContainText("Junior Web Developer");
  await expect(card).toContainText("We are pleased to offer you this position.");
  await noSidewaysScroll(learner.page);
  expect((await new AxeBuilder({ page: learner.page }).analyze()).violations).toEqual([]);

  // No changes nothing; Yes accepts, once.
  await card.getByRole("button", { name: "Accept offer" }).click();
  const confirm = learner.page.getByRole("dialog", { name: "Accept this offer?" });
  await confirm.getByRole("button", { name: "No" }).click();
  await expect(card).toContainText("Awaiting reply");
  await card.getByRole("button", { name: "Accept offer" }).click();
  await confirm.getByRole("button", { name: "Yes" }).click();
  await expect(learner.page.getByTestId("toast-status")).toHaveText("You accepted the offer.");
  await expect(card).toContainText("Accepted");
  await expect(card.getByRole("button", { name: "Accept offer" })).toHaveCount(0);

  // The admin's open page shows the answer without a reload.
  await expect(listed).toContainText("Accepted");
  await expect(listed).toContainText(/Accepted \d/);
});

test("staff issue a certificate to the ticked learners after a confirmation naming them", async ({
  browser,
  baseURL,
  staff,
}) => {
  const people: Person[] = [];
  for (const name of ["Asha", "Ravi"]) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const account = await signUpByApi(page.request, baseURL!, newAccount(name, "Java"));
    people.push({ context, page, account });
  }
  await openLive(staff.page, "/staff");
  // Ticked across two searches, as staff pick learners from the list.
  for (const person of people) {
    await staff.page.getByLabel("Search by name, email or phone").fill(person.account.username);
    // Ticked once the list shows the search's result, as a person would: a tick made while the
    // list is still being replaced can land on a row that is replaced under it.
    await expect(learnerItems(staff.page)).toHaveText([new RegExp(person.account.username)]);
    await staff.page.getByRole("checkbox", { name: `Select ${person.account.username}` }).check();
  }
  const panel = staff.page.getByRole("complementary", { name: "Send to learners" });
  const form = panel.getByRole("group", { name: "Certificate (PDF)" });
  await form.getByLabel("Title").fill("Java Foundations");
  await form.getByRole("button", { name: "Issue to selected (2)" }).click();
  const confirm = staff.page.getByRole("dialog", { name: "Issue this certificate to the selected learners?" });
  await expect(confirm).toContainText(`"Java Foundations" to 2 selected learners`);
  await expect(confirm).toContainText(people[0]!.account.username);
  await confirm.getByRole("button", { name: "Yes" }).click();
  await expect(staff.page.getByTestId("toast-status")).toContainText("Issuing certificates to 2 learners");

  // Each learner's popup lists it once the job has made it.
  for (const person of people) {
    await expect
      .poll(
        async () => {
          await person.page.goto("/dashboard?show=certificates");
          return person.page.getByTestId("learner-document").filter({ hasText: "Java Foundations" }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await person.context.close();
  }
});
