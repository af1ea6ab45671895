import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { setRole } from "../support/e2e-roles";
import { expect, openLive, password, serverOfItsOwn, test } from "./fixtures";

/** The invitation mail's link in the server's outbox (no SMTP_URL: mail is written there). */
async function invitationLink(dataDir: string, to: string): Promise<string> {
  const outbox = path.join(dataDir, "outbox");
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
        for (const name of mails) {
          const text = fs
            .readFileSync(path.join(outbox, name), "utf8")
            .replace(/=\r?\n/g, "")
            .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
          if (!text.includes(`To: ${to}`)) continue;
          link = /\/reset-password\?token=[A-Za-z0-9_-]+&invite=1/.exec(text)?.[0];
        }
        return link;
      },
      { timeout: 20_000 },
    )
    .toBeDefined();
  return link!;
}

// On a server of its own: the checklist is the institute's, and other specs set its signatory.
test.describe("first run", () => {
  test.describe.configure({ mode: "serial" });
  const server = serverOfItsOwn();

  test("the admin's checklist ticks as items are done; an invited trainer sets a password and lands on /staff", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const baseURL = server.url;
    const run = randomUUID().slice(0, 6);
    const email = `first-admin-${run}@example.com`;
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const signUp = await page.request.post(`${baseURL}/api/auth/sign-up/email`, {
      headers: { origin: baseURL },
      data: {
        username: "FirstAdmin",
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

    const checklist = page.getByRole("region", { name: "Set up your institute" });
    const item = (name: string) => checklist.getByRole("listitem").filter({ hasText: name });
    await openLive(page, "/staff");
    await expect(checklist).toContainText("0 of 6 done");
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(checklist).toBeVisible();
      await expect(item("Invite your staff")).toHaveAttribute("data-done", "false");
      expect((await new AxeBuilder({ page }).analyze()).violations, `axe on /staff at ${width} px`).toEqual([]);
      await page.screenshot({ path: `test-results/first-run-${width}.png`, fullPage: false });
    }

    // At 1280 px: invite a trainer from the checklist's link.
    await page.setViewportSize({ width: 1280, height: 900 });
    await item("Invite your staff").getByRole("link").click();
    await expect(page).toHaveURL(/\/staff\/people#invite$/);
    const invite = page.getByRole("form", { name: "Invite staff" });
    await invite.getByLabel("Name").fill("Anil Rao");
    await invite.getByLabel("Email").fill(`anil-${run}@example.com`);
    await invite.getByLabel("Role").selectOption("trainer");
    expect((await new AxeBuilder({ page }).analyze()).violations, "axe on /staff/people").toEqual([]);
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByTestId("toast-status")).toContainText(`Invitation sent to anil-${run}@example.com`);
    // The same email again: refused, and nothing changes.
    await invite.getByLabel("Name").fill("Anil Rao");
    await invite.getByLabel("Email").fill(`anil-${run}@example.com`);
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByTestId("toast-alert")).toContainText("already has an account (role trainer)");
    await openLive(page, "/staff");
    await expect(item("Invite your staff")).toHaveAttribute("data-done", "true");
    await expect(checklist).toContainText("1 of 6 done");

    // At 375 px: set who signs documents.
    await page.setViewportSize({ width: 375, height: 900 });
    await item("Set who signs certificates and offer letters").getByRole("link").click();
    await expect(page).toHaveURL(/\/staff\/documents$/);
    await page.getByLabel("Signatory's name").fill("Hemant Joshi");
    await page.getByLabel("Signatory's title").fill("Director");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast-status")).toBeVisible();
    await openLive(page, "/staff");
    await expect(item("Set who signs certificates and offer letters")).toHaveAttribute("data-done", "true");
    await expect(checklist).toContainText("2 of 6 done");

    // The invitee: the mail's link, a password, and the staff workspace.
    const invitee = await browser.newContext({ baseURL });
    const anil = await invitee.newPage();
    await anil.goto(await invitationLink(server.dataDir, `anil-${run}@example.com`));
    await expect(anil.getByRole("heading", { name: "Choose your password" })).toBeVisible();
    await anil.getByLabel("New Password", { exact: true }).fill("anil-password-1");
    await anil.getByLabel("Confirm New Password").fill("anil-password-1");
    await anil.getByRole("button", { name: "Set New Password" }).click();
    await expect(anil).toHaveURL(/\/staff$/);
    await expect(anil.getByRole("region", { name: "Set up your institute" })).toHaveCount(0);
    await invitee.close();

    // Dismissed: gone for this admin (and every other).
    await page.setViewportSize({ width: 1280, height: 900 });
    await checklist.getByRole("button", { name: "Hide this checklist" }).click();
    await expect(page.getByTestId("toast-status")).toContainText("Checklist hidden.");
    await page.reload();
    await expect(page.locator("main[data-live=connected]")).toBeVisible();
    await expect(checklist).toHaveCount(0);
    await context.close();
  });
});
