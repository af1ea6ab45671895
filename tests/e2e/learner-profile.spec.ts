import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, learnerItems, openLive, password, test, type Account } from "./fixtures";

// A learner's own settings on the dashboard (phone and course, photo removal, password change),
// at a desktop and a phone width, against the built server that playwright.config.ts starts.

const toastStatus = (page: Page) => page.getByTestId("toast-status");

/** Axe over the dashboard's settings and the open dialog, if any. */
async function expectAxeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
}

/** The staff workspace narrowed to one learner, their card expanded. */
async function openStaffCard(page: Page, account: Account) {
  await openLive(page, `/staff?q=${account.username}`);
  const card = learnerItems(page).filter({ hasText: account.username });
  await expect(learnerItems(page)).toHaveCount(1);
  await card.getByRole("button", { name: new RegExp(account.username) }).click();
  await expect(card).toHaveAttribute("data-selected", "true");
  return card;
}

for (const width of [1280, 375]) {
  test.describe(`learner self-service at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("phone and course: a bad phone is refused at the field, a good one is saved and shown to staff live", async ({
      learner,
      staff,
    }) => {
      const page = learner.page;
      await openLive(page, "/dashboard");
      await expect(page.getByText("Course: Python")).toBeVisible();
      // The settings are a page of their own, linked from the dashboard.
      await page.getByRole("link", { name: /^Settings/ }).click();
      await expect(page).toHaveURL(/\/settings$/);
      await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
      const details = page.getByRole("region", { name: "Your details" });
      const phone = details.getByLabel("Phone");
      await expect(phone).toHaveValue("9876543210");
      await expect(details.getByLabel("Course")).toHaveValue("Python");
      const card = await openStaffCard(staff.page, learner.account);
      await expect(card).toContainText("9876543210");

      // The browser checks first, with sign-up's message; focus goes to the field.
      await phone.fill("12345");
      await details.getByRole("button", { name: "Save details" }).click();
      await expect(details.getByRole("alert")).toHaveText("Invalid phone number.");
      await expect(phone).toBeFocused();
      await expect(phone).toHaveAttribute("aria-invalid", "true");
      await expect(phone).toHaveAttribute("aria-describedby", "profile-error");
      await expectAxeClean(page);
      // At most 10 characters can be typed, as at sign-up.
      await phone.fill("");
      await phone.pressSequentially("91234567891");
      await expect(phone).toHaveValue("9123456789");
      await details.getByLabel("Course").selectOption("VFX");
      await details.getByRole("button", { name: "Save details" }).click();
      await expect(toastStatus(page)).toHaveText("Your phone and course have been saved.");
      await expect(details.getByRole("alert")).toHaveText("");
      await expect(phone).not.toHaveAttribute("aria-invalid");
      // Staff see it without reloading.
      await expect(card).toContainText("9123456789");
      await expect(card).toContainText("VFX");
      await page.reload();
      await expect(page.getByRole("region", { name: "Your details" }).getByLabel("Phone")).toHaveValue("9123456789");
      await expect(page.locator("html")).toHaveJSProperty("scrollWidth", width);
      await expectAxeClean(page);
      await page.getByRole("link", { name: "Back to your dashboard" }).click();
      await expect(page.getByText("Course: VFX")).toBeVisible();
    });

    test("password: a wrong current one is refused, the right one ends the other browser's session and keeps this one", async ({
      learner,
      browser,
      baseURL,
    }) => {
      const page = learner.page;
      // The same learner signed in on another device.
      const elsewhere = await browser.newContext({ baseURL });
      const other = await elsewhere.newPage();
      const signIn = await other.request.post("/api/auth/sign-in/email", {
        data: { email: learner.account.email, password },
        headers: { origin: baseURL! },
      });
      expect(signIn.status()).toBe(200);
      await openLive(other, "/dashboard");
      await expect(other.getByRole("heading", { name: `Welcome ${learner.account.username}!` })).toBeVisible();

      await openLive(page, "/settings");
      const form = page.getByRole("region", { name: "Change password" });
      await expect(form.getByText("At least 8 characters.")).toBeVisible();
      const current = form.getByLabel("Current Password");
      const next = form.getByLabel("New Password", { exact: true });
      await expect(next).toHaveAttribute("aria-describedby", "password-rule");

      // Too short: said before anything is sent, at the field.
      await current.fill(password);
      await next.fill("short");
      await form.getByLabel("Confirm New Password").fill("short");
      await form.getByRole("button", { name: "Change password" }).click();
      await expect(form.getByRole("alert")).toHaveText("Password must be at least 8 characters.");
      await expect(next).toBeFocused();
      await expect(next).toHaveAttribute("aria-invalid", "true");

      // A wrong current password: the server's clear refusal, at that field.
      const newPassword = "a-new-e2e-password-2";
      await current.fill("not-my-password");
      await next.fill(newPassword);
      await form.getByLabel("Confirm New Password").fill(newPassword);
      await form.getByRole("button", { name: "Change password" }).click();
      await expect(form.getByRole("alert")).toHaveText("Your current password is not correct.");
      await expect(current).toBeFocused();
      await expect(current).toHaveAttribute("aria-invalid", "true");
      await expectAxeClean(page);

      await current.fill(password);
      await form.getByRole("button", { name: "Change password" }).click();
      await expect(toastStatus(page)).toHaveText(
        "Your password has been changed. You have been signed out on every other device.",
      );
      await expect(current).toHaveValue("");
      await expect(form.getByRole("alert")).toHaveText("");

      // The other device's session has ended: its data no longer loads, and its page leaves.
      const again = await other.request.get("/dashboard", { maxRedirects: 0 });
      expect(again.status()).toBe(302);
      expect(again.headers()["location"]).toContain("auth=login");
      await other.reload();
      await expect(other.getByRole("dialog").getByRole("heading", { name: "Log in" })).toBeVisible();
      await elsewhere.close();

      // This one goes on, also after a reload.
      await page.reload();
      await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    });

    test("photo: No keeps it, Yes removes it (danger style), and staff see it gone live", async ({
      learner,
      staff,
    }) => {
      const page = learner.page;
      await openLive(page, "/dashboard");
      await expect(page.getByRole("button", { name: "Remove photo" })).toHaveCount(0);
      const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: "#1e40af" } })
        .png()
        .toBuffer();
      await page.getByTestId("photo-input").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
      const photo = page.getByRole("img", { name: `Profile picture of ${learner.account.username}` });
      await expect(photo).toBeVisible();
      const src = await photo.getAttribute("src");

      const card = await openStaffCard(staff.page, learner.account);
      await expect(card.getByRole("img", { name: `Profile image of ${learner.account.username}` })).toBeVisible();

      await page.getByRole("button", { name: "Remove photo" }).click();
      const dialog = page.getByRole("dialog", { name: "Remove photo" });
      await expect(dialog).toContainText("Remove your profile photo? Staff will no longer see it.");
      await expect(dialog.getByRole("button", { name: "Yes" })).toHaveClass(/bg-red-700/);
      await expectAxeClean(page);
      await dialog.getByRole("button", { name: "No" }).click();
      await expect(dialog).toBeHidden();
      await expect(photo).toHaveAttribute("src", src!);

      await page.getByRole("button", { name: "Remove photo" }).click();
      await dialog.getByRole("button", { name: "Yes" }).click();
      await expect(dialog).toBeHidden();
      await expect(toastStatus(page)).toHaveText("Your profile photo has been removed.");
      await expect(photo).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Remove photo" })).toHaveCount(0);
      // The stored file is gone, and staff see no photo without reloading.
      expect((await page.request.get(src!)).status()).toBe(404);
      await expect(card.getByRole("img", { name: `No profile image for ${learner.account.username}` })).toBeVisible();
      await expectAxeClean(page);
    });
  });
}
