import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, newPerson, openLive, serverOfItsOwn, test, userId } from "./fixtures";

// One catalogue from the course card to the agreement: an admin gives a course fee terms (the
// editor warns while its price disagrees with them), a visitor reads them on its card, a batch
// of the course uses them and an enrolled learner's agreement says the same, and a batch that
// overrides them says so. On a server of its own: the other specs read the shared catalogue.

const termsLine = "Pay 15 % of your first-year salary after placement, at most ₹2,00,000 + GST";
const widths = [1280, 375] as const;
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The landing page's card for a course title. */
const card = (page: Page, title: string) =>
  page.locator("#training li").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

async function noAxeViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    where,
  ).toEqual([]);
}

async function noSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** Fee terms defined on the batches page: a percentage of the fixed CTC, capped or not. */
async function defineTerms(page: Page, name: string, percent: string, cap: string) {
  const form = page.getByRole("form", { name: "New fee terms" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("CTC threshold a year (₹)").fill("3,00,000");
  await form.getByLabel("Fee", { exact: true }).selectOption("percent");
  await form.getByLabel("Fee percentage (%)").fill(percent);
  await form.getByLabel("Cap (₹, optional)").fill(cap);
  await form.getByRole("button", { name: "Save fee terms" }).click();
  await expect(page.getByTestId("toast-status")).toContainText(`Fee terms ${name} saved.`);
}

test.describe("a course's fee terms", () => {
  const server = serverOfItsOwn();

  test("show on its card, in its batch's agreement, and a batch's override is shown as such (1280 and 375 px)", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const baseURL = server.url;
    const admin = await newPerson(browser, baseURL, "Admin", { role: "admin", dataDir: server.dataDir });
    const learner = await newPerson(browser, baseURL, "Learner");
    const page = admin.page;
    await page.setViewportSize({ width: 1280, height: 900 });

    await openLive(page, "/staff/batches");
    await defineTerms(page, "PAP 15", "15", "2,00,000");
    await defineTerms(page, "PAP 10", "10", "");

    // Java takes PAP 15 in the catalogue; its ₹15,500 disagrees with them until it is their cap.
    await openLive(page, "/staff/courses");
    const java = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /^4\. Java/ }) });
    await java.locator("summary").click();
    const javaForm = page.getByRole("form", { name: "Edit Java" });
    await javaForm.getByLabel("Pay-after-placement fee terms").selectOption({ label: "PAP 15" });
    await javaForm.getByRole("button", { name: "Save Java" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Course saved. Visitors see it now.");
    await expect(java.getByTestId("course-terms")).toHaveText(`Fee terms PAP 15: ${termsLine}`);
    const warning = page.getByRole("region", { name: "Advertised prices that disagree with fee terms" });
    await expect(warning.getByRole("listitem")).toHaveText([
      "Java: Its card advertises ₹15,500, but its fee terms charge up to ₹2,00,000 before GST.",
    ]);
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await noAxeViolations(page, `/staff/courses at ${width} px`);
      await noSidewaysScroll(page);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await javaForm.getByLabel("Price in rupees (empty: no amount shown)").fill("2,00,000");
    await javaForm.getByRole("button", { name: "Save Java" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Course saved. Visitors see it now.");
    await expect(warning).toHaveCount(0);

    // A visitor reads the terms on Java's card, beside its price; other cards have none.
    const visitor = await browser.newContext({ baseURL });
    const home = await visitor.newPage();
    for (const width of widths) {
      await home.setViewportSize({ width, height: 900 });
      await home.goto("/");
      const javaCard = card(home, "Java");
      await expect(javaCard.getByTestId("course-terms-line")).toHaveText(termsLine);
      await expect(javaCard).toContainText("₹2,00,000");
      await expect(home.getByTestId("course-terms-line")).toHaveCount(1);
      await javaCard.scrollIntoViewIfNeeded();
      await expect(javaCard.getByTestId("course-terms-line")).toBeInViewport();
      await javaCard.screenshot({ path: `test-results/course-terms-card-${width}.png` });
      await noAxeViolations(home, `/ at ${width} px`);
      await noSidewaysScroll(home);
    }
    await visitor.close();

    // A batch of Java created without terms of its own uses the course's.
    const batchName = `Java ${Date.now()}`;
    await openLive(page, "/staff/batches");
    const newBatch = page.getByRole("form", { name: "New batch" });
    await newBatch.getByLabel("Name").fill(batchName);
    await newBatch.getByLabel("Course").selectOption({ label: "Java" });
    await newBatch.getByLabel("Start date").fill(dayFromToday(-30));
    await newBatch.getByLabel("End date").fill(dayFromToday(150));
    await expect(newBatch.getByLabel("Fee terms (pay after placement)")).toHaveValue("");
    await newBatch.getByRole("button", { name: "Create batch" }).click();
    await expect(page.getByTestId("toast-status")).toContainText(`Batch ${batchName} created.`);
    const row = page.getByTestId("batch").filter({ hasText: batchName });
    await expect(row).toContainText("Pay after placement (PAP 15)");
    await expect(row.getByTestId("terms-source")).toHaveText("The course's terms");

    // Enrolled, the learner's agreement says the same terms.
    await openLive(page, `/staff/placement/${await userId(learner.page)}`);
    const enrol = page.getByRole("form", { name: "Enrol in a batch" });
    await enrol.getByLabel("Batch").selectOption({ label: `${batchName} (pay after placement)` });
    await enrol.getByRole("button", { name: "Enrol" }).click();
    await expect(page.getByTestId("toast-status")).toContainText(`enrolled in ${batchName}`);
    for (const width of widths) {
      await learner.page.setViewportSize({ width, height: 900 });
      await openLive(learner.page, "/dashboard");
      const agreement = learner.page.getByRole("region", {
        name: `Your pay-after-placement agreement for ${batchName} is waiting for you to accept it`,
      });
      await expect(agreement).toContainText(
        "you pay a fee of 15 % of the offer's fixed CTC a year, at most ₹2,00,000, plus GST at 18 %",
      );
      await noAxeViolations(learner.page, `the learner's dashboard at ${width} px`);
      await noSidewaysScroll(learner.page);
    }

    // An admin gives the batch its own terms: its page and the batches page say it overrides.
    await openLive(page, "/staff/batches");
    await row.getByRole("link", { name: batchName }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(batchName);
    await expect(page.locator("main[data-live=connected]")).toBeVisible();
    const terms = page.getByRole("region", { name: "Fee terms" });
    await expect(terms).toContainText(`PAP 15: ${termsLine}`);
    await expect(terms.getByTestId("terms-source")).toContainText("The course's terms");
    const change = page.getByRole("form", { name: "Change the batch's fee terms" });
    await change.getByLabel("Use").selectOption({ label: "PAP 10" });
    await change.getByRole("button", { name: "Save fee terms" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText(
      `${batchName} now uses PAP 10, overriding its course's terms.`,
    );
    await expect(terms).toContainText("PAP 10: Pay 10 % of your first-year salary after placement + GST");
    await expect(terms.getByTestId("terms-source")).toContainText("Overrides the course's terms (PAP 15).");
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await terms.scrollIntoViewIfNeeded();
      await terms.screenshot({ path: `test-results/batch-terms-override-${width}.png` });
      await noAxeViolations(page, `the batch page at ${width} px`);
      await noSidewaysScroll(page);
    }
    await openLive(page, "/staff/batches");
    await expect(row.getByTestId("terms-source")).toHaveText("Overrides the course's terms");
    await expect(row).toContainText("Pay after placement (PAP 10)");
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await noAxeViolations(page, `/staff/batches at ${width} px`);
    }
    await learner.context.close();
    await admin.context.close();
  });
});
