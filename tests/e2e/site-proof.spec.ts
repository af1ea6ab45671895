import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, openLive, test } from "./fixtures";

test("an admin's testimonials show on the landing page only with consent; the About text is theirs to edit", async ({
  admin,
  browser,
  baseURL,
}) => {
  const run = randomUUID().slice(0, 6);
  const withConsent = `Priya ${run}`;
  const withoutConsent = `Rahul ${run}`;
  const page = admin.page;
  await openLive(page, "/staff/site");
  await expect(page.getByRole("heading", { name: "Public site" })).toBeVisible();

  const add = page.getByRole("form", { name: "Add a testimonial" });
  for (const [name, consent] of [
    [withConsent, true],
    [withoutConsent, false],
  ] as const) {
    await add.getByLabel("Learner's name").fill(name);
    await add.getByLabel("Course").fill("Full Stack Java");
    await add.getByLabel("Quote").fill(`${name}: the live projects got me my first job.`);
    if (consent) {
      await add.getByLabel("The learner agreed to be shown on the website").check();
      await add.getByLabel("How they agreed (required with consent)").fill("Signed form, 3 May");
    }
    await add.getByRole("button", { name: "Add testimonial" }).click();
    await expect(page.getByText("Testimonial saved.")).toBeVisible();
    await expect(page.getByText(`${name}, Full Stack Java`)).toBeVisible();
  }
  await expect(page.getByText(`${withoutConsent}, Full Stack Java (not shown: no consent)`)).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    expect((await new AxeBuilder({ page }).analyze()).violations, `axe at ${width} px`).toEqual([]);
  }

  await page.getByLabel("Text (a blank line starts a new paragraph)").fill(`About us ${run}.\n\nWe teach in Pune.`);
  await page.getByRole("button", { name: "Save About page" }).click();
  await expect(page.getByText("Page text saved. Visitors see it now.")).toBeVisible();

  // A visitor, from the anonymous page cache, right away.
  const visitor = await browser.newContext({ baseURL });
  const home = await visitor.newPage();
  await home.goto("/");
  const results = home.getByRole("region", { name: "Learners who got there" });
  await expect(results.getByText(withConsent, { exact: true })).toBeVisible();
  await expect(home.getByText(withoutConsent)).toHaveCount(0);
  for (const width of [1280, 375]) {
    await home.setViewportSize({ width, height: 900 });
    expect((await new AxeBuilder({ page: home }).analyze()).violations, `axe on / at ${width} px`).toEqual([]);
  }
  expect(await home.content()).not.toContain(withoutConsent);
  await home.goto("/about");
  await expect(home.getByRole("heading", { name: "About", exact: true })).toBeVisible();
  await expect(home.getByText(`About us ${run}.`)).toBeVisible();
  await expect(home.getByText("We teach in Pune.")).toBeVisible();
  await visitor.close();
});

test("staff who are not admins get no Public site page", async ({ staff }) => {
  const response = await staff.page.goto("/staff/site");
  expect(response?.status()).toBe(403);
});
