import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, newPerson, openLive, pdfText, type Person, serverOfItsOwn, test, userId } from "./fixtures";

// Who signs documents, as an admin meets it on an institute nobody has set up: the settings
// page previews a sample certificate and offer letter with what is typed, before it is saved;
// no certificate is issued until a signatory is saved, and then its PDF names them. On a server
// of its own: the shared one starts with a signatory set.

/**
 * Clicks a preview button: the browser posts the form as it stands to a tab of its own; the PDF
 * the server answers with is read on its way there, and the tab closed again.
 */
async function previewPdf(page: Page, name: string): Promise<Buffer> {
  const pdf = Promise.withResolvers<Buffer>();
  await page.context().route(
    "**/staff/documents/sample",
    async (route) => {
      const response = await route.fetch();
      const body = await response.body();
      await route.fulfill({ response });
      pdf.resolve(body);
    },
    { times: 1 },
  );
  const [tab] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name }).click()]);
  const body = await pdf.promise;
  await tab.close();
  return body;
}

test.describe("document signatory", () => {
  test.describe.configure({ mode: "serial" });
  const server = serverOfItsOwn();
  let admin: Person;
  test.beforeAll(async ({ browser }) => {
    admin = await newPerson(browser, server.url, "Admin", { role: "admin", dataDir: server.dataDir });
  });
  test.afterAll(async () => {
    await admin?.context.close();
  });

  test("the settings page previews a sample certificate and offer letter with the settings as typed, before saving", async () => {
    test.setTimeout(90_000);
    const page = admin.page;
    for (const width of [1280, 375] as const) {
      await page.setViewportSize({ width, height: 900 });
      await openLive(page, "/staff/documents");
      await page.getByLabel("Signatory's name").fill(`Meera Iyer ${width}`);
      await page.getByLabel("Signatory's title").fill("Head of Training");
      const certificate = await previewPdf(page, "Preview a sample certificate");
      const offerLetter = await previewPdf(page, "Preview a sample offer letter");
      for (const [kind, pdf] of [
        ["certificate", certificate],
        ["offer letter", offerLetter],
      ] as const) {
        expect(pdf.subarray(0, 4).toString(), kind).toBe("%PDF");
        const text = pdfText(pdf);
        expect(text, kind).toContain(`Meera Iyer ${width}`);
        expect(text, kind).toContain("Head of Training");
        expect(text, kind).toContain("Sample Learner");
      }
      expect(pdfText(certificate)).toContain("Full Stack Web Development");
      expect(pdfText(offerLetter)).toContain("Junior Web Developer");
      expect((await new AxeBuilder({ page }).analyze()).violations, `axe at ${width} px`).toEqual([]);
      // Previewed, not saved: the page still has nobody set to sign.
      await page.reload();
      await expect(page.locator("main[data-live=connected]")).toBeVisible();
      await expect(page.getByLabel("Signatory's name")).toHaveValue("");
    }
  });

  test("a certificate cannot be issued before a signatory is set, then can, and its PDF names the signatory", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const learner = await newPerson(browser, server.url, "Learner");
    const learnerId = await userId(learner.page);
    const page = admin.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openLive(page, `/staff/learners/${learnerId}`);
    const note = page.getByRole("note").filter({ hasText: "Set who signs documents first." });
    await expect(note).toHaveText("Set who signs documents first.");
    const form = page.getByRole("group", { name: "Certificate (PDF)" });
    await form.getByLabel("Title").fill("Cloud Foundations");
    await form.getByRole("button", { name: "Issue certificate" }).click();
    await expect(page.getByTestId("toast-alert")).toContainText("Set who signs documents first.");
    await expect(page.getByTestId("staff-document")).toHaveCount(0);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // The note's link leads to the settings, where the admin saves who signs.
    await note.getByRole("link", { name: "Set who signs documents" }).click();
    await expect(page).toHaveURL(/\/staff\/documents$/);
    await page.getByLabel("Signatory's name").fill("Hemant Joshi");
    await page.getByLabel("Signatory's title").fill("Director of Training");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("toast-status")).toHaveText("Document settings saved. New documents will show them.");

    await openLive(page, `/staff/learners/${learnerId}`);
    await expect(page.getByRole("note").filter({ hasText: "Set who signs documents first." })).toHaveCount(0);
    await form.getByLabel("Title").fill("Cloud Foundations");
    await form.getByRole("button", { name: "Issue certificate" }).click();
    await expect(page.getByTestId("toast-status")).toContainText("Certificate issued to");
    await expect(page.getByTestId("staff-document")).toHaveCount(1);

    // The learner downloads it: the PDF names the signatory and their title.
    await learner.page.goto("/dashboard?show=certificates");
    const card = learner.page.getByTestId("learner-document").filter({ hasText: "Cloud Foundations" });
    await expect(card).toHaveCount(1);
    const [download] = await Promise.all([
      learner.page.waitForEvent("download"),
      card.getByRole("link", { name: /^Download PDF/ }).click(),
    ]);
    const text = pdfText(fs.readFileSync((await download.path())!));
    expect(text).toContain("Cloud Foundations");
    expect(text).toContain("Hemant Joshi");
    expect(text).toContain("Director of Training");
    await learner.context.close();
  });
});
