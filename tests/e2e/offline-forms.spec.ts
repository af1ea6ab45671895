import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "@playwright/test";
import { noteDataDir } from "../support/data-dir-note";
import { onE2eDatabase } from "../support/e2e-roles";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { agedEnquiryFormTime, expect, newPerson, openLive, test } from "./fixtures";

// The other forms that change something, on a connection that drops: a preview, a confirmation's
// Yes (the ConfirmDialog every send to many and every delete goes through), an ActionForm (the
// catalogue's, as the site, placement and documents pages have them) and a form of its own (the
// enquiry inbox's note). Each keeps what was typed, says so in place, and Retry stores it once.

const lostMessage = "Could not reach Upskill. Your text is kept.";

async function count(baseURL: string, sql: string, params: string[], dataDir?: string): Promise<number> {
  const { rows } = await onE2eDatabase(baseURL, [{ sql, params }], dataDir);
  return Number(rows[0]?.n);
}

/** Offline as the browser has it, and said under the header. */
async function setOffline(page: Page, context: BrowserContext, offline: boolean) {
  await context.setOffline(offline);
  const line = page.locator("[data-connection]");
  if (offline) await expect(line).toHaveText(/^You are offline\./);
  else await expect(line).toHaveCount(0);
}

async function composer(page: Page, width: number): Promise<Locator> {
  if (width >= 1024) return page.getByRole("complementary", { name: "Send to learners" });
  await page.getByRole("button", { name: "Write" }).click();
  return page.getByRole("dialog", { name: "Send to learners" });
}

for (const width of [1280, 375]) {
  test(`at ${width} px: a preview and a send to all matching made offline say so in place; Retry sends once`, async ({
    browser,
    baseURL,
    staff,
  }) => {
    const learner = await newPerson(browser, baseURL!, "Matching");
    const { rows } = await onE2eDatabase(baseURL!, [
      { sql: `select id from "user" where email = ?`, params: [learner.account.email] },
    ]);
    const learnerId = String(rows[0]?.id);
    const { page, context } = staff;
    await page.setViewportSize({ width, height: 800 });
    await openLive(page, `/staff?q=${learner.account.username}`);
    await expect(page.getByTestId("learner-card")).toHaveCount(1);
    const compose = await composer(page, width);
    const notice = compose.getByLabel("Notice", { exact: true });
    await notice.fill("Placement drive on Monday.");

    // The preview, asked for offline: its box says so, and Retry shows it once back.
    await setOffline(page, context, true);
    await compose.getByRole("button", { name: "Preview notice" }).click();
    const previewLost = compose.getByRole("alert").filter({ hasText: lostMessage });
    await expect(previewLost).toBeVisible();
    await setOffline(page, context, false);
    await previewLost.getByRole("button", { name: "Retry" }).click();
    await expect(compose.getByRole("region", { name: "Preview of the notice" })).toContainText(
      "Placement drive on Monday.",
    );

    // The confirmation's Yes, made offline: the dialog says so and keeps Yes back for Retry.
    await compose.getByRole("radio", { name: "To 1 matching" }).check();
    await compose.getByRole("button", { name: "Send Notice to 1 matching", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Send this notice to all matching learners?" });
    const yes = dialog.getByRole("button", { name: "Send to 1 learner" });
    await expect(yes).toBeEnabled();
    await setOffline(page, context, true);
    await yes.click();
    await expect(dialog.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
    await expect(yes).toBeDisabled();
    await setOffline(page, context, false);
    await dialog.getByRole("button", { name: "Retry" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId("toast-status")).toHaveText(/^Notice sent to 1 learner/);
    const notices = `select count(*) as n from message where "learnerId" = ? and kind = 'notice'`;
    expect(await count(baseURL!, notices, [learnerId])).toBe(1);
    await learner.context.close();
  });
}

// Enquiries and sign-up options on a server of their own: the enquiries count against no other
// test's per-address limit, and a new sign-up option shows in no other test's sign-up form.
test.describe("its own server", () => {
  test.describe.configure({ mode: "serial" });
  let server: ServerProcess;
  let dataDir: string;
  let forgetDataDir: (() => void) | undefined;

  test.beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-offline-forms-"));
    server = await startServerProcess({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "100" }, { readyWithinMs: 60_000 });
    forgetDataDir = noteDataDir(server);
  });

  test.afterAll(async () => {
    await server?.stop();
    forgetDataDir?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const width of [1280, 375]) {
    test(`at ${width} px: an enquiry note and a sign-up option added offline stay with Retry, stored once`, async ({
      browser,
    }) => {
      const admin = await newPerson(browser, server.url, "Offlineadmin", { role: "admin" });
      const { page, context } = admin;
      await page.setViewportSize({ width, height: 800 });
      const name = `Caller ${width}`;
      const posted = await page.request.post(`${server.url}/contact`, {
        headers: { origin: server.url },
        form: {
          intent: "enquiry",
          website: "",
          formTime: await agedEnquiryFormTime(page.request, server.url),
          name,
          phone: "9123456780",
          email: "",
          course: "Not sure yet",
          message: "Evening batches?",
          callbackTime: "any",
        },
      });
      expect(posted.status()).toBe(200);

      // The inbox's note (a form of its own through useAction).
      await openLive(page, "/staff/enquiries");
      await page.getByRole("link", { name: new RegExp(name) }).click();
      await expect(page.getByRole("heading", { name })).toBeVisible();
      const note = page.getByLabel("Add a note");
      const text = `Called back at ${width}; wants Saturdays.`;
      await note.fill(text);
      await setOffline(page, context, true);
      await page.getByRole("button", { name: "Add note" }).click();
      // In the note's own form, not only in the toast region.
      const lost = page.locator("form").filter({ has: note }).getByRole("alert").filter({ hasText: lostMessage });
      await expect(lost).toBeVisible();
      await expect(note).toHaveValue(text);
      await setOffline(page, context, false);
      await lost.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByTestId("toast-status")).toHaveText("Note added.");
      await expect(note).toHaveValue("");
      const notes = `select count(*) as n from enquiry_event where kind = 'note' and note = ?`;
      expect(await count(server.url, notes, [text], dataDir)).toBe(1);

      // The catalogue's sign-up option (an ActionForm, as on the site, placement and documents pages).
      await openLive(page, "/staff/courses");
      const form = page.getByRole("form", { name: "Add a sign-up option" });
      const option = form.getByLabel("Course name");
      const label = `Offline Option ${width}`;
      await option.fill(label);
      await setOffline(page, context, true);
      await form.getByRole("button", { name: "Add option" }).click();
      await expect(form.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
      await expect(option).toHaveValue(label);
      await setOffline(page, context, false);
      await form.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByTestId("toast-status")).toHaveText("Sign-up option added.");
      await expect(option).toHaveValue("");
      const options = `select count(*) as n from signup_course_option where label = ?`;
      expect(await count(server.url, options, [label], dataDir)).toBe(1);
      await context.close();
    });
  }
});
