import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import sharp from "sharp";
import { setRole } from "../support/e2e-roles";
import { expect, openLive, password, serverOfItsOwn, test } from "./fixtures";

// On a server of its own: publishing changes what every other spec's landing page shows.
test.describe("the brand and sections editor", () => {
  // One server for both tests, in one worker.
  test.describe.configure({ mode: "serial" });
  const server = serverOfItsOwn({ SITE_NAME: "Upskill" });

  test("an admin uploads a logo, sets a colour, rewrites the hero and a policy, previews, publishes; a visitor sees it", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const baseURL = server.url;
    const run = randomUUID().slice(0, 6);
    const email = `brand-admin-${run}@example.com`;
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const signUp = await page.request.post(`${baseURL}/api/auth/sign-up/email`, {
      headers: { origin: baseURL },
      data: {
        username: "BrandAdmin",
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

    await openLive(page, "/staff/site");
    await expect(page.getByRole("heading", { name: "Brand, sections and policies" })).toBeVisible();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      expect((await new AxeBuilder({ page }).analyze()).violations, `axe on the editor at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // The brand: a logo and a colour; a pale colour is refused with its contrast, as typed and on saving.
    const brand = page.getByRole("form", { name: "Brand and contact" });
    await brand.getByLabel("Institute's name").fill(`Nagpur Code School ${run}`);
    const colour = brand.getByLabel("Brand colour of the buttons (empty: the product's blue)");
    await colour.fill("#f59e0b");
    await expect(brand.getByText("White text on #f59e0b has a contrast of 2.1:1")).toBeVisible();
    await brand.getByRole("button", { name: "Save brand draft" }).click();
    await expect(page.getByTestId("toast-alert")).toContainText("contrast of 2.1:1; it needs at least 4.5:1");
    await colour.fill("#14532d");
    await expect(brand.getByText(/White text on #14532d: \d+\.\d:1/)).toBeVisible();
    const logo = await sharp({ create: { width: 600, height: 200, channels: 3, background: "#14532d" } })
      .png()
      .toBuffer();
    await brand.getByLabel("Logo (PNG, JPEG or WebP, at most 5 MB)").setInputFiles({
      name: "logo.png",
      mimeType: "image/png",
      buffer: logo,
    });
    await brand.getByRole("button", { name: "Save brand draft" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Saved as a draft. Preview it, then publish.");

    // The hero and the refund policy.
    const hero = page.getByRole("form", { name: "Welcome header" });
    await hero.getByLabel("Headline", { exact: true }).fill(`Learn to code in Nagpur ${run}`);
    await hero.getByLabel("Text under the headline (optional)").fill("Evening batches with working engineers.");
    await hero.getByLabel("First button's label").fill("Our courses");
    await hero.getByRole("button", { name: "Save header draft" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Saved as a draft. Preview it, then publish.");
    const refund = page.getByRole("form", { name: "Refund Policy" });
    await refund
      .getByRole("textbox")
      .fill(`Refunds at {name}.\n\n## How to ask\n\n- Write to [{email}](mailto:{email}) **within 7 days**.`);
    await refund.getByRole("button", { name: "Save policy draft" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Saved as a draft. Preview it, then publish.");

    // Not published yet: a visitor sees the product's copy.
    const visitor = await browser.newContext({ baseURL });
    const home = await visitor.newPage();
    await home.goto("/");
    await expect(home.getByRole("heading", { level: 1 })).toContainText("We build software for businesses");

    // The preview shows the drafts, brand included.
    await page.getByRole("link", { name: "Preview" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Learn to code in Nagpur ${run}`);
    await expect(page.getByRole("complementary", { name: "Preview" })).toContainText("Drafts: Brand and contact");
    await expect(page.getByRole("banner").locator("img[src^='/site-images/']")).toBeVisible();
    // The preview's enquiry form is shown as visitors see it, but sends nothing from here.
    await expect(page.getByRole("button", { name: "Send enquiry" })).toBeDisabled();
    await expect(page.getByText("Here it sends nothing.")).toBeVisible();
    expect(await page.locator("#enquiry form").getAttribute("method")).toBeNull();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      expect((await new AxeBuilder({ page }).analyze()).violations, `axe on the preview at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("link", { name: "Refund Policy" }).first().click();
    await expect(page.getByText(`Refunds at Nagpur Code School ${run}.`)).toBeVisible();
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Published. Visitors see it now.");
    const publishedAt = Date.now();

    // A fresh visitor, at both widths: the new hero, logo, colour and policy.
    for (const width of [1280, 375]) {
      const fresh = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
      const visit = await fresh.newPage();
      await visit.goto("/");
      await expect(visit.getByRole("heading", { level: 1 })).toHaveText(`Learn to code in Nagpur ${run}`);
      if (width === 1280)
        console.log(`published hero seen by a visitor ${Date.now() - publishedAt} ms after the click`);
      await expect(visit.getByText("Evening batches with working engineers.")).toBeVisible();
      await expect(visit.getByRole("link", { name: "Our courses" })).toHaveAttribute("href", "#training");
      const headerLogo = visit.getByRole("banner").locator("img").first();
      await expect(headerLogo).toHaveAttribute("src", /^\/site-images\/[\w-]+\.webp$/);
      await expect(headerLogo).toHaveAttribute("width", "108");
      await expect(headerLogo).toHaveAttribute("height", "36");
      expect(await headerLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const logoResponse = await visit.request.get(`${baseURL}${await headerLogo.getAttribute("src")}`);
      expect(logoResponse.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      if (width === 1280) {
        const getStarted = visit.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Get Started" });
        expect(await getStarted.evaluate((link) => getComputedStyle(link).backgroundColor)).toBe("rgb(20, 83, 45)");
      }
      await expect(visit).toHaveTitle(new RegExp(`Nagpur Code School ${run}`));
      expect((await new AxeBuilder({ page: visit }).analyze()).violations, `axe on / at ${width} px`).toEqual([]);
      await visit.goto("/RefundPolicy");
      await expect(visit.getByText(`Refunds at Nagpur Code School ${run}.`)).toBeVisible();
      await expect(visit.getByRole("heading", { name: "How to ask" })).toBeVisible();
      await expect(visit.getByRole("link", { name: /^hello@/ })).toHaveAttribute("href", /^mailto:hello@/);
      await expect(visit.locator("main strong")).toHaveText("within 7 days");
      await expect(visit.getByText("Last updated: 1 January 2025")).toHaveCount(0);
      expect((await new AxeBuilder({ page: visit }).analyze()).violations, `axe on the policy at ${width} px`).toEqual(
        [],
      );
      await fresh.close();
    }
    await visitor.close();
    await context.close();
  });

  test("staff who are not admins, and learners, get no editor and no preview", async ({ browser }) => {
    const baseURL = server.url;
    for (const role of ["mentor", null] as const) {
      const email = `brand-${role ?? "learner"}-${randomUUID().slice(0, 6)}@example.com`;
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      const signUp = await page.request.post(`${baseURL}/api/auth/sign-up/email`, {
        headers: { origin: baseURL },
        data: {
          username: "NotAdmin",
          phone: "9876543210",
          course: "Python",
          gender: "male",
          email,
          password,
          confirmPassword: password,
        },
      });
      expect(signUp.status()).toBe(200);
      if (role) await setRole(baseURL, email, role, server.dataDir);
      expect((await page.goto("/staff/site"))?.status()).toBe(403);
      expect((await page.goto("/staff/site/preview"))?.status()).toBe(403);
      const post = await page.request.post(`${baseURL}/staff/site.data`, {
        headers: { origin: baseURL },
        multipart: { intent: "publish" },
      });
      expect(post.status()).toBe(403);
      await context.close();
    }
  });
});
