import http from "node:http";
import zlib from "node:zlib";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

// Must match tests/e2e/start-server.ts, which sets it for the server under test.
const PAYMENT_URL = process.env.PAYMENT_URL ?? "https://payments.example.com/upskill-e2e";

const publicRoutes = [
  { path: "/", heading: "We build software for businesses" },
  { path: "/about", heading: "About" },
  { path: "/contact", heading: "Contact" },
  { path: "/PrivacyPolicy", heading: "Privacy Policy" },
  { path: "/RefundPolicy", heading: "Refund Policy" },
  { path: "/TermsAndConditions", heading: "Terms and Conditions" },
] as const;

const widths = [1280, 375] as const;

const footerLinks = [
  { name: "Home", href: "/" },
  { name: "Terms and Conditions", href: "/TermsAndConditions" },
  { name: "Privacy Policy", href: "/PrivacyPolicy" },
  { name: "Refund Policy", href: "/RefundPolicy" },
] as const;

/** Clicks until the click has its effect: before hydration a button does nothing yet. */
async function clickUntil(page: Page, click: () => Promise<void>, check: () => Promise<void>) {
  await expect(async () => {
    await click();
    await check();
  }).toPass({ timeout: 10_000 });
}

/** The distance from the viewport's top to an element's top, once smooth scrolling settles. */
function sectionTop(page: Page, id: string) {
  return expect.poll(() =>
    page.evaluate((id) => Math.round(document.getElementById(id)!.getBoundingClientRect().top), id),
  );
}

/** The page's layout shift since it started loading, `settleMs` after asking (for shifts still to come). */
function layoutShiftSoFar(page: Page, settleMs: number): Promise<number> {
  return page.evaluate(
    (waitMs) =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) total += (entry as unknown as { value: number }).value;
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(total), waitMs);
      }),
    settleMs,
  );
}

test.describe("routes", () => {
  for (const route of publicRoutes) {
    test(`${route.path} answers 200 with its own title, canonical and Open Graph tags`, async ({ page, baseURL }) => {
      const response = await page.goto(route.path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(route.heading);
      await expect(page).toHaveTitle(/\S/);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}${route.path}`);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${baseURL}${route.path}`);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /\S/);
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", `${baseURL}/og-image.png`);
      await expect(page.locator("main#main")).toHaveCount(1);
    });
  }

  test("every public page has a title of its own", async ({ page }) => {
    const titles = new Set<string>();
    for (const route of publicRoutes) {
      await page.goto(route.path);
      titles.add(await page.title());
    }
    expect(titles.size).toBe(publicRoutes.length);
  });

  test("/dashboard signed out ends on /", async ({ page, request }) => {
    const direct = await request.get("/dashboard", { maxRedirects: 0 });
    expect([301, 302, 303, 307, 308]).toContain(direct.status());
    expect(new URL(direct.headers()["location"] ?? "", "http://x").pathname).toBe("/");
    const response = await page.goto("/dashboard");
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/");
  });

  for (const [lower, canonical] of [
    ["/privacypolicy", "/PrivacyPolicy"],
    ["/refundpolicy", "/RefundPolicy"],
    ["/termsandconditions", "/TermsAndConditions"],
  ] as const) {
    test(`${lower} redirects permanently to ${canonical}`, async ({ request }) => {
      const response = await request.get(lower, { maxRedirects: 0 });
      expect(response.status()).toBe(301);
      expect(response.headers()["location"]).toBe(canonical);
    });
  }

  test("the logo image loads", async ({ page }) => {
    await page.goto("/");
    const logo = page.locator("header img").first();
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });

  test("an unknown path is a 404 that says NotFound", async ({ page }) => {
    const response = await page.goto("/no-such-page-here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("NotFound");
  });

  test("the static assets the pages reference are served", async ({ request }) => {
    for (const [path, type] of [
      ["/favicon.ico", /icon/],
      ["/favicon.svg", /svg/],
      ["/apple-touch-icon.png", /png/],
      ["/og-image.png", /png/],
    ] as const) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expect(response.headers()["content-type"], path).toMatch(type);
    }
  });
});

test.describe("landing page content", () => {
  test("has its sections in order with 3 blurbs, 8 services, 13 advantages and 12 courses", async ({ page }) => {
    await page.goto("/");
    const ids = await page.locator("main > section").evaluateAll((sections) => sections.map((s) => s.id));
    expect(ids).toEqual(["home", "services", "features", "advantage", "training"]);
    await expect(page.locator("#home li")).toHaveCount(3);
    await expect(page.locator("#services li")).toHaveCount(8);
    await expect(page.locator("#advantage li")).toHaveCount(13);
    await expect(page.locator("#training li")).toHaveCount(12);
    await expect(page.getByRole("heading", { name: "Our Services" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Our Features" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your Advantage" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Pay After Placement Courses" })).toBeVisible();
  });

  test("writes course prices the Indian way and shows no amount for Linux", async ({ page }) => {
    await page.goto("/");
    const card = (title: string) =>
      page.locator("#training li").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
    await expect(card("Data Structures & Algorithms")).toContainText("₹1,15,500");
    await expect(card("Data Structures & Algorithms")).toContainText("6 Months");
    await expect(card("C#")).toContainText("₹12,499");
    await expect(card("Ethical Hacking")).toContainText("₹65,000");
    await expect(card("Linux")).toContainText("3 Months");
    await expect(card("Linux")).not.toContainText("₹");
  });

  test("every Register Now opens the payment link, with its course, in a new tab", async ({ page }) => {
    await page.goto("/");
    const links = page.getByRole("link", { name: "Register Now" });
    await expect(links).toHaveCount(12);
    for (const link of await links.all()) {
      await expect(link).toHaveAttribute("href", new RegExp(`^${PAYMENT_URL}\\?course=[a-z-]+$`));
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    }
  });

  test("Contact Us offers a WhatsApp chat when SITE_WHATSAPP is set, on / and /contact", async ({ page }) => {
    for (const path of ["/", "/contact"]) {
      await page.goto(path);
      const chat = page.getByRole("link", { name: /Chat with us on WhatsApp/ });
      await expect(chat).toHaveAttribute("href", "https://wa.me/919876543210");
      await expect(chat).toHaveAttribute("target", "_blank");
      await expect(chat).toHaveAttribute("rel", "noopener noreferrer");
    }
  });

  test("the footer shows About Us, Contact Us with the configured details, and this year's copyright", async ({
    page,
  }) => {
    await page.goto("/");
    const footer = page.locator("footer#contact");
    await expect(footer.getByRole("heading", { name: "About Us" })).toBeVisible();
    await expect(footer.getByRole("heading", { name: "Contact Us" })).toBeVisible();
    await expect(footer.locator('a[href^="mailto:"]')).toHaveText(/@/);
    await expect(footer.locator('a[href^="tel:"]')).toHaveText(/\d/);
    await expect(footer.locator("address")).toContainText("Pune");
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
  });

  test("/contact shows the same About Us and Contact Us block", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.getByRole("heading", { name: "About Us" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Contact Us" })).toBeVisible();
    await expect(page.locator("main address")).toContainText("Pune");
  });

  test("the policy pages state the refund, age and children's data rules", async ({ page }) => {
    await page.goto("/RefundPolicy");
    const refund = page.locator("main");
    await expect(refund).toContainText("within 7 days");
    await expect(refund).toContainText("more than 20%");
    await expect(refund).toContainText("3–5 business days");
    await expect(refund).toContainText("7–10 business days");
    await page.goto("/TermsAndConditions");
    await expect(page.locator("main")).toContainText("18 years old");
    await expect(page.locator("main")).toContainText("consent of a parent or guardian");
    await expect(page.locator("main")).toContainText("children under 13");
    await page.goto("/PrivacyPolicy");
    await expect(page.locator("main")).toContainText("children under 13");
  });
});

test.describe("landing page navigation", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  const menu = [
    ["Home", "home"],
    ["Features", "features"],
    ["Services", "services"],
    ["Training", "training"],
    ["Contact", "contact"],
  ] as const;

  for (const [label, id] of menu) {
    test(`the ${label} menu button scrolls to its section`, async ({ page }) => {
      await page.goto("/");
      // Start from the far end of the page, so that landing on the section proves the scroll.
      await page.evaluate((atTop) => window.scrollTo(0, atTop ? document.body.scrollHeight : 0), id === "home");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label, exact: true }).click();
      await expect(page.locator(`#${id}`)).toBeInViewport();
      if (id !== "contact") {
        // Just below the sticky top bar (64 px), not hidden under it.
        await sectionTop(page, id).toBeGreaterThanOrEqual(60);
        await sectionTop(page, id).toBeLessThanOrEqual(90);
      }
    });
  }

  test("Get Started scrolls to the training section", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("#training")).not.toBeInViewport();
    await page.getByRole("link", { name: "Get Started" }).click();
    await expect(page.locator("#training")).toBeInViewport();
    await sectionTop(page, "training").toBeLessThanOrEqual(90);
    await sectionTop(page, "training").toBeGreaterThanOrEqual(60);
  });

  test("the skip link is the first stop and moves focus to the main content", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
  });

  test("Go to Top is absent at the top, appears at the bottom and scrolls back up", async ({ page }) => {
    await page.goto("/");
    const goToTop = page.getByRole("button", { name: "Go to Top" });
    await expect(goToTop).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
    await page.waitForTimeout(200);
    await expect(goToTop).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(goToTop).toBeVisible();
    await goToTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(goToTop).toHaveCount(0);
  });

  test("no layout shift while the page loads and hydrates", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const shift = await layoutShiftSoFar(page, 500);
    expect(shift).toBe(0);
  });
});

test("the top bar does not move while a slow phone reads the page", async ({ browser, baseURL }) => {
  // A phone's slow CPU (or a busy machine): the browser paints the page before it has read all
  // of it, and what it paints first must not move when the rest arrives.
  const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
  for (let load = 0; load < 6; load++) {
    await page.goto("/");
    await page.waitForLoadState("load");
    const shift = await layoutShiftSoFar(page, 300);
    expect(shift, `layout shift on load ${load + 1}`).toBe(0);
  }
  await context.close();
});

test.describe("mobile menu at 375 px", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("is hidden behind its toggle, opens, closes with Esc and returns focus", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Menu" });
    const mobileMenu = page.locator("#mobile-menu");
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-controls", "mobile-menu");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(mobileMenu).toBeHidden();
    // The desktop menu collapses too: no visible menu link until the toggle is used.
    await expect(page.getByRole("link", { name: "Features", exact: true })).toBeHidden();

    await clickUntil(
      page,
      () => toggle.click(),
      () => expect(toggle).toHaveAttribute("aria-expanded", "true", { timeout: 500 }),
    );
    await expect(mobileMenu).toBeVisible();
    await expect(mobileMenu.getByRole("link", { name: "Training", exact: true })).toBeVisible();
    await expect(mobileMenu.getByRole("link", { name: "Get Started" })).toBeVisible();

    await mobileMenu.getByRole("link", { name: "Features", exact: true }).focus();
    await page.keyboard.press("Escape");
    await expect(mobileMenu).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toBeFocused();
  });

  test("is keyboard operable and a menu link closes it and lands on its section", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Menu" });
    const mobileMenu = page.locator("#mobile-menu");
    await clickUntil(
      page,
      async () => {
        await toggle.focus();
        await page.keyboard.press("Enter");
      },
      () => expect(toggle).toHaveAttribute("aria-expanded", "true", { timeout: 500 }),
    );
    await page.keyboard.press("Tab");
    await expect(mobileMenu.getByRole("link", { name: "Home", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(mobileMenu).toBeHidden();
    await expect(page.locator("#home")).toBeInViewport();

    await toggle.click();
    await mobileMenu.getByRole("link", { name: "Services", exact: true }).click();
    await expect(mobileMenu).toBeHidden();
    await expect(page.locator("#services")).toBeInViewport();
    await sectionTop(page, "services").toBeLessThanOrEqual(90);
  });
});

test.describe("top bar account buttons", () => {
  for (const width of widths) {
    test(`Log in and Sign up are in the top bar on the first screen, not behind Menu, at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 740 });
      await page.goto("/");
      const bar = page.getByRole("banner");
      const login = bar.getByRole("link", { name: "Log in", exact: true });
      const signUp = bar.getByRole("link", { name: "Sign up", exact: true });
      for (const button of [login, signUp]) {
        await expect(button).toBeVisible();
        await expect(button).toBeInViewport({ ratio: 1 });
      }
      // Side by side on the bar's one line, within the window's width.
      const [loginBox, signUpBox] = [await login.boundingBox(), await signUp.boundingBox()];
      expect(Math.abs(loginBox!.y - signUpBox!.y)).toBeLessThan(2);
      expect(signUpBox!.x).toBeGreaterThan(loginBox!.x + loginBox!.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (width < 1024) {
        await expect(page.locator("#mobile-menu")).toBeHidden();
        await expect(page.getByRole("button", { name: "Menu" })).toBeInViewport({ ratio: 1 });
      }

      // A plain link on the page as sent to a visitor: one click loads the page with the modal
      // open. Clicking again while that page loads would start the load over.
      await signUp.click();
      await expect(page.getByRole("dialog").getByRole("heading", { name: "Sign up" })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toBeHidden();
      await expect(signUp).toBeFocused();
      await login.click();
      await expect(page.getByRole("dialog").getByRole("heading", { name: "Log in" })).toBeVisible();
    });
  }

  test("the bar's buttons fit without the menu at 320 px", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/");
    for (const [role, name] of [
      ["link", "Log in"],
      ["link", "Sign up"],
      ["button", "Menu"],
    ] as const) {
      await expect(page.getByRole("banner").getByRole(role, { name, exact: true })).toBeInViewport({ ratio: 1 });
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });
});

/** The boxes of the footer line's links that the Go to Top button's box overlaps. */
async function footerLinksUnderGoToTop(page: Page) {
  const goToTop = await page.getByRole("button", { name: "Go to Top" }).boundingBox();
  const covered: string[] = [];
  for (const link of await page.getByRole("navigation", { name: "Site" }).getByRole("link").all()) {
    const box = (await link.boundingBox())!;
    const apart =
      box.x + box.width <= goToTop!.x ||
      goToTop!.x + goToTop!.width <= box.x ||
      box.y + box.height <= goToTop!.y ||
      goToTop!.y + goToTop!.height <= box.y;
    if (!apart) covered.push((await link.textContent()) ?? "");
  }
  return covered;
}

test.describe("Go to Top and the footer line", () => {
  for (const width of widths) {
    for (const path of ["/", "/PrivacyPolicy"]) {
      test(`Go to Top covers no footer link on ${path} at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 740 });
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const goToTop = page.getByRole("button", { name: "Go to Top" });
        await expect(goToTop).toBeVisible();
        await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link")).toHaveCount(4);
        expect(await footerLinksUnderGoToTop(page)).toEqual([]);
        // Each link is still the one a tap at its centre reaches.
        for (const link of await page.getByRole("navigation", { name: "Site" }).getByRole("link").all()) {
          const box = (await link.boundingBox())!;
          const hit = await page.evaluate(
            ([x, y]) => document.elementFromPoint(x!, y!)?.closest("a")?.textContent ?? null,
            [box.x + box.width / 2, box.y + box.height / 2],
          );
          expect(hit).toBe(await link.textContent());
        }
      });
    }
  }
});

test.describe("footer line on a short page", () => {
  for (const width of widths) {
    for (const path of ["/about", "/no-such-page-here"]) {
      test(`sits at the bottom of the window on ${path} at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        const footer = page.getByRole("navigation", { name: "Site" });
        await expect(footer).toBeVisible();
        // The page is shorter than the window, so nothing scrolls and the footer ends at its foot.
        expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(900);
        const box = (await footer.boundingBox())!;
        expect(Math.round(box.y + box.height)).toBe(900);
      });
    }
  }
});

test.describe("footer line", () => {
  for (const path of [...publicRoutes.map((route) => route.path), "/no-such-page-here"]) {
    test(`${path} carries the footer links`, async ({ page }) => {
      await page.goto(path);
      const footer = page.getByRole("navigation", { name: "Site" });
      for (const link of footerLinks) {
        await expect(footer.getByRole("link", { name: link.name, exact: true })).toHaveAttribute("href", link.href);
      }
    });
  }
});

/** Fetches a URL asking for gzip only and counts the bytes on the wire. */
function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () =>
          response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${response.statusCode}`)),
        );
      })
      .on("error", reject);
  });
}

test("the anonymous landing page loads at most 60 KB of JavaScript (gzip), inline scripts included", async ({
  page,
}) => {
  const scripts = new Set<string>();
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.add(request.url());
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  // Module preloads count too, whether or not the browser reported them as script requests.
  for (const url of await page
    .locator('script[src], link[rel="modulepreload"]')
    .evaluateAll((elements) => elements.map((e) => (e as HTMLScriptElement).src || (e as HTMLLinkElement).href)))
    scripts.add(url);
  let total = 0;
  for (const url of scripts) total += await gzipBytes(url);
  const inline = await page.locator("script:not([src])").evaluateAll((elements) => elements.map((e) => e.textContent));
  expect(inline.length).toBeGreaterThan(0);
  for (const text of inline) total += zlib.gzipSync(text ?? "").length;
  console.log(
    `landing page JavaScript: ${scripts.size} files, ${inline.length} inline, ${(total / 1024).toFixed(1)} KiB gzip`,
  );
  expect(total).toBeLessThanOrEqual(60 * 1024);
});

// The landing page's document height at 375 px before its redesign (measured on the same build
// setup): the redesigned page must be at most half as long.
const heightBeforeRedesignAt375 = 14_423;

test.describe("landing page design", () => {
  test("at 375 px the page is at most half as long as before, with Sign up and a call to action on the first screen", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`landing page at 375 px: ${height} px (before: ${heightBeforeRedesignAt375} px)`);
    expect(height / heightBeforeRedesignAt375).toBeLessThanOrEqual(0.5);
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign up", exact: true })).toBeInViewport({
      ratio: 1,
    });
    await expect(page.getByRole("link", { name: "See the courses" })).toBeInViewport({ ratio: 1 });
  });

  test("the hero image is AVIF from the page's own server, sized before it loads", async ({ page }) => {
    await page.goto("/");
    const image = page.locator("#home picture img");
    await expect(image).toHaveAttribute("width", "1200");
    await expect(image).toHaveAttribute("height", "900");
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const src = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(new URL(src).pathname).toMatch(/^\/hero\/hero-\d+\.avif$/);
  });

  for (const width of widths) {
    test(`Show all reveals every service and advantage, and no advantage card is left alone on its row, at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      const cards = page.locator("#advantage li");
      await expect(cards.filter({ visible: true })).toHaveCount(3);
      await page.locator("#advantage summary").click();
      await expect(cards.filter({ visible: true })).toHaveCount(13);
      // Each row's cards together are as wide as the grid.
      const boxes = await cards.evaluateAll((items) => items.map((li) => li.getBoundingClientRect().toJSON()));
      const gridWidth = await page.locator("#advantage ul").evaluate((ul) => ul.getBoundingClientRect().width);
      const rows = new Map<number, number>();
      for (const box of boxes) rows.set(Math.round(box.top), (rows.get(Math.round(box.top)) ?? 0) + box.width);
      for (const total of rows.values()) expect(total).toBeGreaterThan(gridWidth * 0.9);

      await expect(page.locator("#services li").filter({ visible: true })).toHaveCount(width < 640 ? 2 : 4);
      await page.locator("#services summary").click();
      await expect(page.locator("#services li").filter({ visible: true })).toHaveCount(8);
      await expect(page.locator("#services summary").getByText("Show fewer services")).toBeVisible();
    });
  }
});

test.describe("the landing page with JavaScript off", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });

  test("menu links scroll, Register Now is a plain link, and Log in / Sign up are reachable", async ({ page }) => {
    await page.goto("/");
    // The toggle can't work: the menu's links show under the bar instead.
    await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
    const menu = page.locator("#mobile-menu");
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Training", exact: true }).click();
    await expect(page).toHaveURL(/#training$/);
    await expect(page.locator("#training")).toBeInViewport();
    const register = page
      .locator("#training")
      .getByRole("link", { name: /^Register Now/ })
      .first();
    await expect(register).toHaveAttribute("href", new RegExp(`^${PAYMENT_URL}`));
    await expect(register).toHaveAttribute("target", "_blank");

    await page.locator("#advantage summary").click();
    await expect(page.locator("#advantage li").filter({ visible: true })).toHaveCount(13);

    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Sign up", exact: true }).click();
    await expect(page).toHaveURL(/\?auth=signup$/);
    // Playwright's text matching skips <noscript>: read the shown note's box and text directly.
    const note = await page.evaluate(() => {
      const p = document.querySelector("noscript p") as HTMLElement | null;
      return p && { text: p.textContent, height: p.getBoundingClientRect().height };
    });
    expect(note?.text).toContain("Signing up and logging in need JavaScript");
    expect(note?.height).toBeGreaterThan(0);
  });
});

test.describe("accessibility", () => {
  for (const width of widths) {
    for (const route of [...publicRoutes.map((r) => r.path), "/no-such-page-here"]) {
      test(`axe finds no violations on ${route} at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(route);
        await page.waitForLoadState("networkidle");
        const results = await new AxeBuilder({ page }).analyze();
        const violations = results.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          nodes: v.nodes.map((node) => node.target.join(" ")),
        }));
        expect(violations).toEqual([]);
      });
    }
  }
});
