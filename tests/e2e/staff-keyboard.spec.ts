import AxeBuilder from "@axe-core/playwright";
import { randomUUID } from "node:crypto";
import { expect, learnerItems, newPerson, openLive, test } from "./fixtures";

// The workspace by keyboard alone, and focus going back to what opened a popup.

for (const width of [1280, 375]) {
  test(`staff at ${width} px, keyboard only: search, move, open, compose, send, focus at each step`, async ({
    browser,
    baseURL,
    staff,
  }) => {
    test.slow();
    const tag = `k${randomUUID().slice(0, 6)}`;
    const people = [await newPerson(browser, baseURL!, `Asha${tag}`), await newPerson(browser, baseURL!, `Ravi${tag}`)];
    const page = staff.page;
    await page.setViewportSize({ width, height: 800 });
    await openLive(page, "/staff");
    expect((await new AxeBuilder({ page }).include("main").analyze()).violations, `${width} px`).toEqual([]);

    // `/` goes to the search; Escape leaves it, the text kept.
    const search = page.getByLabel("Search by name, email or phone");
    await page.keyboard.press("/");
    await expect(search).toBeFocused();
    await page.keyboard.insertText(tag);
    await expect(learnerItems(page)).toHaveCount(2);
    await page.keyboard.press("Escape");
    await expect(search).not.toBeFocused();
    await expect(search).toHaveValue(tag);

    // j and k move between learners; Enter opens the one with focus.
    const openButton = (index: number) => learnerItems(page).nth(index).locator("button[aria-expanded]");
    await page.keyboard.press("j");
    await expect(openButton(0)).toBeFocused();
    await page.keyboard.press("j");
    await expect(openButton(1)).toBeFocused();
    await page.keyboard.press("k");
    await expect(openButton(0)).toBeFocused();
    const shown = await openButton(0).innerText();
    const chosen = people.find((person) => shown.includes(person.account.username))!;
    await page.keyboard.press("Enter");
    await expect(learnerItems(page).nth(0)).toHaveAttribute("data-selected", "true");
    await expect(openButton(0)).toBeFocused();

    // c opens the composer at its text; the audience line and Send name the learner.
    await page.keyboard.press("c");
    const compose =
      width === 375
        ? page.getByRole("dialog", { name: "Send to learners" })
        : page.getByRole("complementary", { name: "Send to learners" });
    const text = compose.getByLabel("Notice", { exact: true });
    await expect(text).toBeFocused();
    await expect(compose.getByTestId("audience-line")).toHaveText(`To ${chosen.account.username}`);
    // Typed in a field, j, k, c and ? are letters, not shortcuts.
    await page.keyboard.type("jkc? Keyboard notice");
    await expect(text).toHaveValue("jkc? Keyboard notice");
    await expect(text).toBeFocused();
    // Tab: the audience choice, then Send, named for whom it reaches.
    await page.keyboard.press("Tab");
    await expect(compose.getByRole("radio", { name: `To ${chosen.account.username}` })).toBeFocused();
    await page.keyboard.press("Tab");
    const send = compose.getByRole("button", { name: `Send Notice to ${chosen.account.username}`, exact: true });
    await expect(send).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("toast-status")).toHaveText("Notice sent successfully!");
    // Focus goes to what the send answered (on a phone the sheet closes, and it is on the bar).
    const result = page.getByTestId("send-result").filter({ visible: true });
    await expect(result).toHaveText("Notice sent successfully!");
    await expect(result).toBeFocused();

    // ? lists the keys; Escape closes it and focus goes back.
    await page.keyboard.press("?");
    const keys = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(keys).toBeVisible();
    expect((await new AxeBuilder({ page }).include("[role=dialog]").analyze()).violations, `${width} px`).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(keys).toBeHidden();
    await expect(result).toBeFocused();
    await page.screenshot({ path: `test-results/staff-keyboard-${width}.png`, fullPage: false });
    // An open learner's long record id wraps inside the page: nothing scrolls sideways.
    await expect(page.locator("html")).toHaveJSProperty("scrollWidth", width);
    for (const person of people) await person.context.close();
  });
}

test("staff at 375 px: the staff pages are behind Menu, grouped, and Escape gives focus back to it", async ({
  staff,
}) => {
  test.slow();
  const page = staff.page;
  await page.setViewportSize({ width: 375, height: 800 });
  await openLive(page, "/staff");
  await expect(page.getByRole("navigation", { name: "Staff pages" })).toBeHidden();
  const menu = page.getByRole("button", { name: "Menu" });
  await menu.click();
  const nav = page.getByRole("dialog", { name: "Staff pages" }).getByRole("navigation", { name: "Staff pages" });
  for (const group of ["Learners", "Messages and reviews", "Batches", "Placement and fees", "Enquiries"]) {
    await expect(nav.getByRole("heading", { name: group, exact: true })).toBeVisible();
  }
  // Admin-only pages are not offered to staff.
  for (const link of ["Import learners", "Audit Log", "Public site", "Courses", "Document settings"]) {
    await expect(nav.getByRole("link", { name: link })).toHaveCount(0);
  }
  await expect(nav.getByRole("heading", { name: "Settings" })).toHaveCount(0);
  expect((await new AxeBuilder({ page }).include("[role=dialog]").analyze()).violations).toEqual([]);
  await page.screenshot({ path: "test-results/staff-menu-375.png" });
  await page.keyboard.press("Escape");
  await expect(menu).toBeFocused();
  await expect(page.locator("html")).toHaveJSProperty("scrollWidth", 375);
});

test("admin at 1280 px: the side navigation offers every group, admin pages too", async ({ admin }) => {
  const page = admin.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLive(page, "/staff");
  const nav = page.getByRole("navigation", { name: "Staff pages" });
  for (const group of [
    "Learners",
    "Messages and reviews",
    "Batches",
    "Placement and fees",
    "Enquiries",
    "Site",
    "Settings",
  ]) {
    await expect(nav.getByRole("heading", { name: group, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole("link", { name: "Audit Log" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
  await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "User DashBoard" })).toBeVisible();
  await page.screenshot({ path: "test-results/staff-nav-1280.png", fullPage: true });
});

for (const width of [1280, 375]) {
  test(`learner at ${width} px: closing the Tasks popup gives focus back to the Tasks button`, async ({ learner }) => {
    const page = learner.page;
    await page.setViewportSize({ width, height: 800 });
    await openLive(page, "/");
    const tasks = page.getByRole("button", { name: /^Tasks \d+ unread$/ });
    await tasks.focus();
    await page.keyboard.press("Enter");
    const popup = page.getByRole("dialog", { name: "Tasks" });
    await expect(popup).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(popup).toBeHidden();
    await expect(tasks).toBeFocused();
    // Closed with its Close button too.
    await tasks.click();
    await popup.getByRole("button", { name: "Close Tasks" }).click();
    await expect(tasks).toBeFocused();
  });
}
