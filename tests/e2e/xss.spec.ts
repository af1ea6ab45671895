import { expect, test, type Locator, type Page } from "@playwright/test";
import { hasControlCharacters } from "~/core/text";
import { setRole } from "../support/e2e-roles";
import { learnerItems, newAccount, signUpByApi, submitIntent } from "./fixtures";
import { xssVectors } from "./xss-corpus";

// Staff write HTML that learners' browsers render, and learners write links that staff browsers
// render. Every vector of the corpus goes through the real path (sent over the API, stored,
// served, rendered in Chromium): none may run, and none may leave a handler or a script URL in
// the page, whether or not the CSP would have stopped it.

test.setTimeout(240_000);
const vectors = xssVectors();
const signUp = (page: Page, baseURL: string, name: string) => signUpByApi(page.request, baseURL, newAccount(name));

/** Records any vector that runs, and any dialog, before the page's own scripts start. */
async function watch(page: Page): Promise<{ ran: number[]; dialogs: string[] }> {
  const seen = { ran: [] as number[], dialogs: [] as string[] };
  await page.exposeFunction("__reportXss", (n: number) => seen.ran.push(n));
  await page.addInitScript(() => {
    (window as unknown as { __xss: (n: number) => void }).__xss = (n) =>
      (window as unknown as { __reportXss: (n: number) => void }).__reportXss(n);
  });
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return seen;
}

/** What an attacker would need in the DOM: handlers, script URLs, active elements. */
async function dangerousMarkup(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const found: string[] = [];
    const forbidden = new Set([
      "SCRIPT",
      "IFRAME",
      "OBJECT",
      "EMBED",
      "STYLE",
      "LINK",
      "META",
      "BASE",
      "FORM",
      "INPUT",
      "BUTTON",
      "SVG",
      "MATH",
      "IMG",
      "VIDEO",
      "AUDIO",
      "TEMPLATE",
    ]);
    for (const node of element.querySelectorAll("*")) {
      if (forbidden.has(node.tagName.toUpperCase())) found.push(`<${node.tagName.toLowerCase()}>`);
      for (const attribute of node.attributes) {
        const value = attribute.value.replace(/[\p{Cc}\s]/gu, "").toLowerCase();
        if (attribute.name.toLowerCase().startsWith("on")) found.push(`${node.tagName} ${attribute.name}`);
        if (/^(javascript|vbscript|data):/.test(value))
          found.push(`${node.tagName} ${attribute.name}=${value.slice(0, 40)}`);
        if (attribute.name === "style") found.push(`${node.tagName} style`);
      }
    }
    return found;
  });
}

test("no vector sent by staff runs in a learner's popups, and no task link runs in the staff view", async ({
  browser,
  baseURL,
}) => {
  const learnerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const learnerPage = await learnerContext.newPage();
  const learner = await signUp(learnerPage, baseURL!, "Target");
  const learnerId = (
    (await (await learnerPage.request.get(`${baseURL}/api/auth/get-session`)).json()) as {
      user: { id: string };
    }
  ).user.id;

  // Three admins share the sends: each staff member may make 120 changes a minute.
  const admins = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const account = await signUp(page, baseURL!, "Admin");
    await setRole(baseURL!, account.email, "admin");
    admins.push({ context, page, account });
  }
  const kinds = ["notice", "task", "certificate"] as const;
  for (const [index, vector] of vectors.entries()) {
    const admin = admins[index % admins.length]!;
    const response = await submitIntent(admin.page, baseURL!, "/staff", {
      intent: "send",
      learnerId,
      kind: kinds[index % kinds.length]!,
      html: `<p>v${index}</p>${vector}`,
    });
    // A vector that sanitizes to nothing is refused as empty: it can't run either.
    expect([200, 400], `vector ${index}`).toContain(response.status);
  }
  const letter = await submitIntent(admins[0]!.page, baseURL!, "/staff", {
    intent: "save-offer-letter",
    learnerId,
    // Control characters are refused outright (400), so the letter carries the others.
    html: vectors.filter((v) => !hasControlCharacters(v)).join("\n"),
  });
  expect(letter.status).toBe(200);

  const seen = await watch(learnerPage);
  await learnerPage.goto("/dashboard");
  await expect(learnerPage.locator("main[data-live=connected]")).toBeVisible();
  for (const button of [
    /^Notification \d+ unread$/,
    /^Tasks \d+ unread$/,
    /^Training Certificate \d+ unread$/,
    /^Offer letter \d+ unread$/,
  ]) {
    await learnerPage.getByRole("button", { name: button }).click();
    const dialog = learnerPage.getByRole("dialog");
    await expect(dialog.locator("li").first()).toBeVisible();
    const more = dialog.getByRole("button", { name: "Show older" });
    while (await more.isVisible()) {
      const count = await dialog.locator("li").count();
      await more.click();
      await expect(dialog.locator("li")).not.toHaveCount(count);
    }
    // Hover and click through every item: handlers that need a gesture would fire now.
    for (const item of await dialog.locator("li").all()) {
      await item.hover();
      await item.click({ position: { x: 5, y: 5 } });
    }
    expect(await dangerousMarkup(dialog.locator("ol")), `${button} popup`).toEqual([]);
    await dialog.getByRole("button", { name: /^Close/ }).click();
  }
  expect(seen.ran).toEqual([]);
  expect(seen.dialogs).toEqual([]);

  // Learner-written links, shown to staff.
  const linkVectors = vectors.slice(0, 50).map((vector, n) => `https://example.com/${n}?q=${vector}`);
  linkVectors.push(`https://example.com/"><img src=x onerror=window.__xss(9001)>`, "javascript:window.__xss(9002)");
  for (const link of linkVectors) {
    const response = await submitIntent(learnerPage, baseURL!, "/dashboard", { intent: "add-task-link", link });
    expect([200, 400], link).toContain(response.status);
  }
  const staffPage = admins[1]!.page;
  const staffSeen = await watch(staffPage);
  await staffPage.goto("/staff");
  await expect(staffPage.locator("main[data-live=connected]")).toBeVisible();
  await staffPage.getByLabel("Search by name").fill(learner.username);
  const card = learnerItems(staffPage).filter({ hasText: learner.username });
  await expect(learnerItems(staffPage)).toHaveCount(1);
  await card.getByRole("button", { name: new RegExp(learner.username) }).click();
  await expect(card.getByRole("link", { name: /example\.com/ }).first()).toBeVisible();
  for (const link of await card.getByRole("link").all()) await link.hover();
  expect(await dangerousMarkup(card.locator("ul"))).toEqual([]);
  expect(staffSeen.ran).toEqual([]);
  expect(staffSeen.dialogs).toEqual([]);

  for (const context of [learnerContext, ...admins.map((a) => a.context)]) await context.close();
});

test("the corpus has at least 200 distinct vectors", () => {
  expect(new Set(vectors).size).toBeGreaterThanOrEqual(200);
});
