import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { courses } from "~/content/site-content";
import { setRole } from "../support/e2e-roles";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { expect, openLive, password, test } from "./fixtures";

const PAYMENT_URL = process.env.PAYMENT_URL ?? "https://payments.example.com/upskill-e2e";

/** The landing page's card for a course title. */
const card = (page: import("@playwright/test").Page, title: string) =>
  page.locator("#training li").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

test("every Register Now carries its course to the payment page, in a new tab, and says so", async ({ page }) => {
  await page.goto("/");
  const links = page.locator("#training").getByRole("link", { name: /^Register Now for / });
  await expect(links).toHaveCount(12);
  for (const [index, course] of courses.entries()) {
    const link = links.nth(index);
    await expect(link).toHaveAccessibleName(`Register Now for ${course.title} (opens in a new tab)`);
    await expect(link).toHaveAttribute("href", `${PAYMENT_URL}?course=${course.id}`);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  }
  // Sighted visitors are told too, under every button.
  await expect(page.locator("#training").getByText("Opens the payment page in a new tab")).toHaveCount(12);
  await expect(card(page, "Java").getByText("Opens the payment page in a new tab")).toBeVisible();
  // The payment page opens in a tab of its own, with the course in its address.
  await page
    .context()
    .route("https://payments.example.com/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Pay</title>" }),
    );
  const [tab] = await Promise.all([page.context().waitForEvent("page"), links.nth(3).click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toBe(`${PAYMENT_URL}?course=java`);
  expect(page.url()).not.toContain("payments.example.com");
});

// The editing test runs on a server of its own: the other specs share the e2e server and count
// its twelve cards.
test.describe("the catalogue editor", () => {
  let server: ServerProcess;
  test.beforeAll(async () => {
    server = await startServerProcess({ NODE_ENV: "production", PAYMENT_URL });
  });
  test.afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  test("an admin changes a price and hides a course; a visitor sees it at once, without a restart", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const baseURL = server.url;
    const email = `catalogue-admin-${randomUUID().slice(0, 8)}@example.com`;
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const signUp = await page.request.post(`${baseURL}/api/auth/sign-up/email`, {
      headers: { origin: baseURL },
      data: {
        username: "CatalogueAdmin",
        phone: "9876543210",
        course: "Python",
        gender: "female",
        email,
        password,
        confirmPassword: password,
      },
    });
    expect(signUp.status()).toBe(200);
    await setRole(baseURL, email, "admin", server.dataDir);

    // A visitor's first look: served (and cached) before the change.
    const visitor = await browser.newContext({ baseURL });
    const home = await visitor.newPage();
    await home.goto("/");
    await expect(card(home, "Java")).toContainText("₹15,500");
    await expect(card(home, "Linux")).toBeVisible();

    await openLive(page, "/staff/courses");
    await expect(page.getByRole("heading", { name: "Courses", exact: true })).toBeVisible();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      expect((await new AxeBuilder({ page }).analyze()).violations, `axe at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    const java = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /^4\. Java/ }) });
    await java.locator("summary").click();
    const javaForm = page.getByRole("form", { name: "Edit Java" });
    await javaForm.getByLabel("Price in rupees (empty: no amount shown)").fill("17,500");
    await javaForm.getByRole("button", { name: "Save Java" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Course saved. Visitors see it now.");
    await expect(java.getByRole("heading")).toContainText("₹17,500");

    const linux = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /^10\. Linux/ }) });
    await linux.locator("summary").click();
    const linuxForm = page.getByRole("form", { name: "Edit Linux" });
    await linuxForm.getByLabel("Shown on the landing page").uncheck();
    const savedAt = Date.now();
    await linuxForm.getByRole("button", { name: "Save Linux" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Course saved. Visitors see it now.");
    await expect(linux.getByRole("heading")).toContainText("Hidden");

    // The same visitor reloads once, right after the save: the change made the server drop the
    // anonymous page it kept, so the very next page shows it.
    await home.reload();
    await expect(card(home, "Java")).toContainText("₹17,500");
    await expect(card(home, "Linux")).toHaveCount(0);
    console.log(`hidden course gone from / for a visitor ${Date.now() - savedAt} ms after the click`);
    await expect(home.locator("#training li")).toHaveCount(11);

    // The editor warns about advertised courses sign-up does not offer, and adds one.
    const warning = page.getByRole("region", { name: "Advertised courses missing from the sign-up form" });
    await expect(warning.getByRole("button")).toHaveCount(5);
    await warning.getByRole("button", { name: "Add ‘Native Development’ to sign-up options" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Sign-up option added.");
    await expect(warning.getByRole("button")).toHaveCount(4);
    await home.goto("/?auth=signup");
    const course = home.getByRole("dialog").getByLabel("Course");
    await expect(course.locator("option").last()).toHaveText("Native Development");
    await expect(course.locator("option")).toHaveCount(38);

    await visitor.close();
    await context.close();
  });
});
