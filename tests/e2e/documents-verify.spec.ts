import AxeBuilder from "@axe-core/playwright";
import { createHash } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { scanQr } from "../support/qr-image";
import { expect, openLive, submitIntent, test, type Person } from "./fixtures";

// The public verify page of a certificate or offer letter: what anyone with the code sees, a
// PDF checked against it in the browser, and an admin's Revoke and Reissue showing there at once.

async function userId(page: Page): Promise<string> {
  const session = await page.request.get("/api/auth/get-session");
  return ((await session.json()) as { user: { id: string } }).user.id;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Issues a certificate to the learner as the admin would (the learner page's intent); its code. */
async function issueCertificate(
  admin: Person,
  baseURL: string,
  learnerId: string,
  fields: Record<string, string> = {},
): Promise<string> {
  const issued = await submitIntent(admin.page, baseURL, `/staff/learners/${learnerId}`, {
    intent: "issue-certificate",
    learnerIds: learnerId,
    title: "Data Analysis with Python",
    description: "Pandas, SQL and charts, with a capstone project.",
    issuedOn: "",
    validUntil: "",
    hours: "120",
    ...fields,
  });
  expect(issued.status, JSON.stringify(issued.data)).toBe(200);
  await openLive(admin.page, `/staff/learners/${learnerId}`);
  const listed = admin.page.getByTestId("staff-document").first();
  return (await listed.locator("dd").first().textContent())!;
}

/** A visitor who is not signed in, in a browser of their own. */
async function visitor(browser: Browser, baseURL: string, width = 1280) {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
  return { context, page: await context.newPage() };
}

/**
 * Drops a file on the page's drop zone, as a person dragging it from their desktop would
 * (retried until the page has hydrated and answers).
 */
async function dropPdf(page: Page, bytes: Buffer, expected: string) {
  await expect(async () => {
    const transfer = await page.evaluateHandle(
      (data) => {
        const dataTransfer = new DataTransfer();
        dataTransfer.items.add(new File([new Uint8Array(data)], "certificate.pdf", { type: "application/pdf" }));
        return dataTransfer;
      },
      [...bytes],
    );
    await page.getByTestId("pdf-drop").dispatchEvent("drop", { dataTransfer: transfer });
    await expect(page.getByTestId("pdf-check")).toContainText(expected, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

async function noSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test("the QR code on the PDF, read by zbarimg from a 150 dpi render, is version 8 at most and opens the document", async ({
  browser,
  baseURL,
  learner,
  admin,
}) => {
  const code = await issueCertificate(admin, baseURL!, await userId(learner.page));
  const pdf = Buffer.from(await (await learner.page.request.get(`/api/documents/${code}/pdf`)).body());
  const scanned = scanQr(pdf, 150);
  expect(scanned.version).toBeLessThanOrEqual(8);
  // The address and the signature in RFC 4648 base 32 (a 64-byte Ed25519 signature).
  expect(scanned.text).toMatch(new RegExp(`^${baseURL}/verify/${code}#[A-Z2-7]{103}$`));

  const { context, page } = await visitor(browser, baseURL!);
  expect((await page.goto(scanned.text))!.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Certificate ${code}Valid`);
  await expect(page.getByTestId("document-fields")).toContainText(learner.account.username);
  await context.close();
});

for (const width of [1280, 375] as const) {
  test(`anyone with the code sees Valid and every field, and the downloaded PDF dropped on the page matches (${width} px)`, async ({
    browser,
    baseURL,
    learner,
    admin,
  }) => {
    const code = await issueCertificate(admin, baseURL!, await userId(learner.page));
    const pdf = Buffer.from(await (await learner.page.request.get(`/api/documents/${code}/pdf`)).body());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");

    const { context, page } = await visitor(browser, baseURL!, width);
    const response = await page.goto(`/verify/${code}`);
    expect(response!.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Certificate ${code}Valid`);
    const fields = page.getByTestId("document-fields");
    await expect(fields).toContainText(learner.account.username);
    await expect(fields).toContainText("Data Analysis with Python");
    await expect(fields).toContainText("Pandas, SQL and charts, with a capstone project.");
    await expect(fields).toContainText("120 hours");
    await expect(fields).toContainText("No end date");
    await expect(page.getByTestId("sha256")).toHaveText(sha256(pdf));
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");

    await dropPdf(page, pdf, "This PDF matches the document.");
    // Any other file: no match, and its checksum shown.
    const changed = Buffer.concat([pdf, Buffer.from("\n% appended\n")]);
    await dropPdf(page, changed, "This PDF does not match the document");
    await expect(page.getByTestId("pdf-check")).toContainText(sha256(changed));
    // Choosing the file instead of dropping it.
    await page.getByLabel("Choose a PDF to check").setInputFiles({
      name: "certificate.pdf",
      mimeType: "application/pdf",
      buffer: pdf,
    });
    await expect(page.getByTestId("pdf-check")).toContainText("This PDF matches the document.");

    await noSidewaysScroll(page);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await context.close();
  });
}

test("an admin revokes with a reason: the verify page says Revoked, the reason and the date; the learner's popup shows it live", async ({
  browser,
  baseURL,
  learner,
  admin,
}) => {
  const learnerId = await userId(learner.page);
  const code = await issueCertificate(admin, baseURL!, learnerId);
  await openLive(learner.page, "/dashboard");
  await learner.page.getByRole("button", { name: /^Training Certificate/ }).click();
  const card = learner.page.getByRole("dialog", { name: "Training Certificates" }).getByTestId("learner-document");
  await expect(card).toContainText("Valid");

  const listed = admin.page.getByTestId("staff-document");
  await listed.getByRole("button", { name: `Revoke ${code}` }).click();
  const confirm = admin.page.getByRole("dialog", { name: `Revoke ${code}?` });
  // No reason: refused in the dialog, nothing sent.
  await confirm.getByRole("button", { name: "Yes" }).click();
  await expect(confirm.getByRole("alert")).toHaveText("Please give the reason for revoking.");
  await confirm.getByLabel("Reason (shown on the verify page)").fill("Issued to the wrong batch.");
  // The answer arrives a second after the revocation's live event, as on a busy machine: the
  // event must not reload the page (where a revoked document has no Revoke) before it is told.
  await admin.page.route(/\.data(\?|$)/, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const response = await route.fetch();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.fulfill({ response });
  });
  await confirm.getByRole("button", { name: "Yes" }).click();
  await expect(admin.page.getByTestId("toast-status")).toHaveText(`${code} revoked. Its verify page now says Revoked.`);
  await admin.page.unrouteAll();
  await expect(listed).toContainText("Revoked");
  await expect(listed).toContainText("Issued to the wrong batch.");
  await expect(listed.getByRole("button", { name: `Reissue ${code}` })).toHaveCount(0);

  // The learner's open popup hears of it.
  await expect(card).toContainText("Revoked");

  const { context, page } = await visitor(browser, baseURL!);
  await page.goto(`/verify/${code}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Revoked");
  const state = page.getByTestId("document-state");
  await expect(state).toContainText("Reason: Issued to the wrong batch.");
  const today = new Intl.DateTimeFormat("en-IN", { dateStyle: "long", timeZone: "Asia/Kolkata" }).format(new Date());
  await expect(state).toContainText(`revoked this certificate on ${today}.`);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await context.close();
});

test("a certificate past its end date says Expired with the date", async ({ browser, baseURL, learner, admin }) => {
  const code = await issueCertificate(admin, baseURL!, await userId(learner.page), {
    issuedOn: "2025-01-06",
    validUntil: "2025-06-30",
  });
  const { context, page } = await visitor(browser, baseURL!);
  await page.goto(`/verify/${code}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Expired");
  await expect(page.getByTestId("document-state")).toContainText("This certificate was valid until 30 June 2025.");
  await expect(page.getByTestId("document-fields")).toContainText("6 January 2025");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await context.close();
});

test("a reissue keeps the code and the address, says 'Reissued on', and only the new PDF matches", async ({
  browser,
  baseURL,
  learner,
  admin,
}) => {
  const learnerId = await userId(learner.page);
  const code = await issueCertificate(admin, baseURL!, learnerId, { title: "Data Analysys with Python" });
  const oldPdf = Buffer.from(await (await admin.page.request.get(`/api/documents/${code}/pdf`)).body());

  const { context, page } = await visitor(browser, baseURL!, 375);
  await page.goto(`/verify/${code}`);
  await expect(page.getByTestId("document-fields")).toContainText("Data Analysys with Python");
  await expect(page.getByTestId("document-state")).not.toContainText("Reissued");

  const listed = admin.page.getByTestId("staff-document");
  await listed.getByRole("button", { name: `Reissue ${code}` }).click();
  const dialog = admin.page.getByRole("dialog", { name: `Reissue ${code}?` });
  await expect(dialog.getByLabel("Title")).toHaveValue("Data Analysys with Python");
  await dialog.getByLabel("Title").fill("Data Analysis with Python");
  await dialog.getByLabel("Holder's name").fill(`${learner.account.username} Rao`);
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(admin.page.getByTestId("toast-status")).toHaveText(
    `${code} reissued with a new PDF. Its code and address stay the same.`,
  );
  await expect(listed).toContainText("Data Analysis with Python");
  await expect(listed).toContainText("Reissued");

  // The same address, at once.
  await page.reload();
  expect(page.url()).toBe(`${baseURL}/verify/${code}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Valid");
  await expect(page.getByTestId("document-fields")).toContainText("Data Analysis with Python");
  await expect(page.getByTestId("document-fields")).toContainText(`${learner.account.username} Rao`);
  const today = new Intl.DateTimeFormat("en-IN", { dateStyle: "long", timeZone: "Asia/Kolkata" }).format(new Date());
  await expect(page.getByTestId("document-state")).toContainText(`Reissued on ${today}`);
  const newPdf = Buffer.from(await (await learner.page.request.get(`/api/documents/${code}/pdf`)).body());
  await expect(page.getByTestId("sha256")).toHaveText(sha256(newPdf));
  await dropPdf(page, oldPdf, "This PDF does not match the document");
  await dropPdf(page, newPdf, "This PDF matches the document.");
  await noSidewaysScroll(page);
  await context.close();
});

test("an unknown code is a 404 'No document with this code.'; the form forgives case and dashes", async ({
  browser,
  baseURL,
  learner,
  admin,
}) => {
  const code = await issueCertificate(admin, baseURL!, await userId(learner.page));
  const { context, page } = await visitor(browser, baseURL!, 375);
  const missing = await page.goto("/verify/UPS-0000-0000-0000-0000");
  expect(missing!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No document with this code.");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.goto("/verify");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verify a certificate or offer letter");
  await page.getByLabel("Document code").fill("not a code");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That is not a document code." })).toBeVisible();
  await page.getByLabel("Document code").fill(` ${code.toLowerCase().replaceAll("-", "")} `);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(`${baseURL}/verify/${code}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Valid");
  await noSidewaysScroll(page);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await context.close();
});

test("admins set the signatory and a signature image; staff have no such page", async ({ admin, staff }) => {
  await openLive(admin.page, "/staff");
  await admin.page.getByRole("link", { name: "Document settings" }).click();
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("Document settings");
  await admin.page.getByLabel("Signatory's name").fill("Asha Kulkarni");
  await admin.page.getByLabel("Signatory's title").fill("Director of Training");
  // A signature: dark strokes on transparency, as a PNG.
  const png = await admin.page.evaluate(async () => {
    const canvas = new OffscreenCanvas(900, 300);
    const g = canvas.getContext("2d")!;
    g.lineWidth = 8;
    g.beginPath();
    g.moveTo(40, 220);
    g.bezierCurveTo(200, 20, 400, 280, 860, 60);
    g.stroke();
    const blob = await canvas.convertToBlob({ type: "image/png" });
    return [...new Uint8Array(await blob.arrayBuffer())];
  });
  await admin.page.getByLabel("Signature image (optional)").setInputFiles({
    name: "signature.png",
    mimeType: "image/png",
    buffer: Buffer.from(png),
  });
  await admin.page.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.page.getByTestId("toast-status")).toHaveText(
    "Document settings saved. New documents will show them.",
  );
  await expect(admin.page.getByRole("img", { name: "Signature of Asha Kulkarni" })).toBeVisible();
  await expect(admin.page.getByLabel("Replace the signature image (optional)")).toBeVisible();
  expect((await new AxeBuilder({ page: admin.page }).analyze()).violations).toEqual([]);
  await admin.page.setViewportSize({ width: 375, height: 800 });
  await noSidewaysScroll(admin.page);

  await openLive(staff.page, "/staff");
  await expect(staff.page.getByRole("link", { name: "Document settings" })).toHaveCount(0);
  await staff.page.goto("/staff/documents");
  await expect(staff.page.getByRole("heading", { level: 1 })).toHaveText("You do not have access to this page.");
});
