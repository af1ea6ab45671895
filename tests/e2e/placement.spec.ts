import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, openLive, test, type Person } from "./fixtures";
import { minimalPdf } from "../support/minimal-pdf";

// Pay after placement as people do it: an admin defines fee terms and a batch, staff enrol a
// learner, the learner accepts the agreement, records an application and its offer with the
// letter, staff verify it, the schedule appears on both pages, and payments are recorded.

async function userId(page: Page): Promise<string> {
  const session = await page.request.get("/api/auth/get-session");
  return ((await session.json()) as { user: { id: string } }).user.id;
}

const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function noSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function noAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** An admin's fee terms and a PAP batch that ended 60 days ago, made on the batches page. */
async function termsAndBatch(admin: Person, batchName: string) {
  const page = admin.page;
  await openLive(page, "/staff/batches");
  const terms = page.getByRole("form", { name: "New fee terms" });
  await terms.getByLabel("Name").fill(`Terms ${batchName}`);
  await terms.getByLabel("CTC threshold a year (₹)").fill("3,00,000");
  await terms.getByLabel("Fee", { exact: true }).selectOption("percent");
  await terms.getByLabel("Fee percentage (%)").fill("12.5");
  await terms.getByLabel("Cap (₹, optional)").fill("60,000");
  await terms.getByLabel("Instalments").fill("3");
  await terms.getByLabel("Placement window (months)").fill("6");
  await terms.getByRole("button", { name: "Save fee terms" }).click();
  await expect(page.getByTestId("toast-status")).toContainText(`Fee terms Terms ${batchName} saved.`);

  const batch = page.getByRole("form", { name: "New batch" });
  await batch.getByLabel("Name").fill(batchName);
  await batch.getByLabel("Course").selectOption({ label: "Web Development" });
  await batch.getByLabel("Start date").fill(dayFromToday(-180));
  await batch.getByLabel("End date").fill(dayFromToday(-60));
  await batch.getByLabel("Fee terms (pay after placement)").selectOption({ label: `Terms ${batchName}` });
  await batch.getByRole("button", { name: "Create batch" }).click();
  await expect(page.getByTestId("toast-status")).toContainText(`Batch ${batchName} created.`);
  await expect(page.getByTestId("batch").filter({ hasText: batchName })).toBeVisible();
}

/** Staff enrol the learner; the learner accepts the agreement and records an offer. */
async function enrolAndOffer(staff: Person, learner: Person, batchName: string, company: string, fixedCtc: string) {
  const learnerId = await userId(learner.page);
  await openLive(staff.page, `/staff/placement/${learnerId}`);
  const enrol = staff.page.getByRole("form", { name: "Enrol in a batch" });
  await enrol.getByLabel("Batch").selectOption({ label: `${batchName} (pay after placement)` });
  await enrol.getByRole("button", { name: "Enrol" }).click();
  await expect(staff.page.getByTestId("toast-status")).toContainText(`enrolled in ${batchName}`);

  // The dashboard shows the agreement waiting; the learner reads it and accepts it there.
  const page = learner.page;
  await openLive(page, "/dashboard");
  const panel = page.getByTestId("placement-panel");
  await expect(
    panel.getByRole("region", {
      name: `Your pay-after-placement agreement for ${batchName} is waiting for you to accept it`,
    }),
  ).toContainText(`Pay-after-placement agreement for ${batchName}.`);
  await noSidewaysScroll(page);
  await noAxeViolations(page);
  await panel.getByRole("button", { name: "I accept this agreement" }).click();
  await expect(page.getByTestId("toast-status")).toContainText("Agreement accepted.");
  await expect(panel).toHaveCount(0);
  await page.getByRole("link", { name: /My placement/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My placement" })).toBeVisible();
  await expect(page.getByTestId("agreement-accepted")).toBeVisible();

  const add = page.getByRole("form", { name: "Add an application" });
  await add.getByLabel("Company").fill(company);
  await add.getByLabel("Role").fill("Frontend Developer");
  await add.getByRole("button", { name: "Add application" }).click();
  const card = page.getByTestId("application").filter({ hasText: company });
  await expect(card.getByTestId("stage")).toHaveText("Applied");
  await card.getByLabel("Move to").selectOption("interview");
  await card.getByRole("button", { name: "Move" }).click();
  await expect(card.getByTestId("stage")).toHaveText("Interview round 1");

  await card.getByText("Record the offer").click();
  const offer = card.getByRole("form", { name: `Offer from ${company}` });
  await offer.getByLabel("Fixed CTC a year (₹)").fill(fixedCtc);
  await offer.getByLabel("Location").fill("Pune");
  await offer.getByLabel("Offer date").fill(dayFromToday(-50));
  await offer.getByLabel("Joining date").fill(dayFromToday(-45));
  await offer.getByLabel("Offer letter (PDF, at most 5 MB)").setInputFiles({
    name: "offer.pdf",
    mimeType: "application/pdf",
    buffer: minimalPdf(),
  });
  await offer.getByRole("button", { name: "Save the offer" }).click();
  await expect(card.getByTestId("offer-status")).toHaveText("Waiting for the institute to verify it");
  await expect(card.getByTestId("stage")).toHaveText("Offered");
  await card.getByLabel("Move to").selectOption("accepted");
  await card.getByRole("button", { name: "Move" }).click();
  await expect(card.getByTestId("stage")).toHaveText("Accepted");
  return learnerId;
}

for (const width of [1280, 375] as const) {
  test(`a learner's path from enrolment to a verified offer, an instalment schedule and payments (${width} px)`, async ({
    learner,
    staff,
    admin,
  }) => {
    test.setTimeout(90_000);
    for (const person of [learner, staff, admin]) await person.page.setViewportSize({ width, height: 900 });
    const batchName = `Web Dev ${width} ${Date.now()}`;
    await termsAndBatch(admin, batchName);
    await noSidewaysScroll(admin.page);
    await noAxeViolations(admin.page);
    const learnerId = await enrolAndOffer(staff, learner, batchName, "Acme Software", "6,00,000");
    await noSidewaysScroll(learner.page);
    await noAxeViolations(learner.page);

    // Staff see it on the board, open it and verify the offer.
    await openLive(staff.page, "/staff/placement");
    const accepted = staff.page.getByTestId("column-accepted");
    await accepted.getByRole("link", { name: new RegExp(learner.account.username) }).click();
    await expect(staff.page).toHaveURL(new RegExp(`/staff/placement/${learnerId}$`));
    await staff.page.getByRole("button", { name: "Verify offer" }).click();
    await expect(staff.page.getByTestId("toast-status")).toContainText("Offer verified.");
    await expect(staff.page.getByTestId("offer-status")).toContainText(/^Verified by Mentor/);
    // 12.5 % of ₹6,00,000 is ₹75,000, capped at ₹60,000, plus 18 % GST: three of ₹23,600.
    await expect(staff.page.getByTestId("fee-decision")).toHaveText(
      "₹70,800 is owed (₹60,000 fee and ₹10,800 GST), in 3 instalments.",
    );
    await expect(staff.page.getByTestId("instalment")).toHaveCount(3);
    await noSidewaysScroll(staff.page);
    await noAxeViolations(staff.page);

    // The learner's open page shows the schedule without a reload.
    await expect(learner.page.getByTestId("instalment")).toHaveCount(3);
    await expect(learner.page.getByTestId("instalment").first()).toContainText("Overdue");

    const pay = staff.page.getByRole("form", { name: "Record a payment" });
    await pay.getByLabel("Amount (₹)").fill("23,600");
    await pay.getByLabel("Paid on").fill(dayFromToday(0));
    await pay.getByLabel("Reference").fill("UTR 4411");
    await pay.getByRole("button", { name: "Record payment" }).click();
    await expect(staff.page.getByTestId("toast-status")).toContainText("Payment recorded.");
    await expect(learner.page.getByTestId("instalment").first()).toContainText("Paid");
    await expect(learner.page.getByTestId("instalment").first()).toContainText("UTR 4411");

    // Staff may not waive; the form is not offered to them.
    await expect(staff.page.getByRole("form", { name: "Waive an instalment" })).toHaveCount(0);
    await openLive(admin.page, `/staff/placement/${learnerId}`);
    const waive = admin.page.getByRole("form", { name: "Waive an instalment" });
    await waive.getByLabel("Reason").fill("Family hardship");
    await waive.getByRole("button", { name: "Waive" }).click();
    await expect(admin.page.getByTestId("toast-status")).toContainText("Instalment waived.");
    await expect(learner.page.getByTestId("instalment").nth(1)).toContainText("Waived by Admin");

    // The outcome report: placed only once the learner has graduated, seeking a job.
    const reportRow = async () => {
      await openLive(admin.page, "/staff/outcomes");
      const row = admin.page.getByRole("table", { name: "Outcomes by batch" }).getByTestId("outcome-row").filter({
        hasText: batchName,
      });
      return (await row.locator("td").allInnerTexts()).map((cell) => cell.replace(/\s+/g, " ").trim());
    };
    expect(await reportRow()).toEqual([
      "1",
      "0",
      "0",
      "0",
      "— none 0 of 0",
      "— none",
      "— none",
      "— none",
      "₹23,600 of ₹23,600 due",
    ]);
    const graduate = admin.page;
    await openLive(graduate, `/staff/placement/${learnerId}`);
    await graduate.getByRole("combobox", { name: "Graduation status" }).selectOption("graduated");
    await graduate.getByRole("button", { name: "Save status" }).click();
    await expect(graduate.getByTestId("graduation")).toHaveText("Graduated");
    expect(await reportRow()).toEqual([
      "1",
      "1",
      "1",
      "1",
      "100% 1 of 1",
      "₹6,00,000",
      "₹6,00,000",
      // From the batch's end (60 days ago) to the offer date (50 days ago).
      "10",
      "₹23,600 of ₹23,600 due",
    ]);
  });
}

test("a rejected offer owes nothing and says why; the learner sends a corrected one", async ({
  learner,
  staff,
  admin,
}) => {
  test.setTimeout(90_000);
  const batchName = `Rejected ${Date.now()}`;
  await termsAndBatch(admin, batchName);
  await enrolAndOffer(staff, learner, batchName, "Shady Corp", "6,00,000");
  await staff.page.reload();
  await staff.page.getByLabel("Reason for rejecting").fill("The letter has no signature.");
  await staff.page.getByRole("button", { name: "Reject offer" }).click();
  await expect(staff.page.getByTestId("toast-status")).toContainText("Offer rejected.");
  await expect(learner.page.getByTestId("offer-status")).toHaveText(
    /Rejected by Mentor\w*: The letter has no signature\./,
  );
  await expect(learner.page.getByTestId("instalment")).toHaveCount(0);
  await expect(learner.page.getByTestId("fee-decision")).toHaveCount(0);

  // The learner sends the signed letter; it waits for verification again.
  const card = learner.page.getByTestId("application").filter({ hasText: "Shady Corp" });
  const offer = card.getByRole("form", { name: "Offer from Shady Corp" });
  await offer.getByLabel("Fixed CTC a year (₹)").fill("6,00,000");
  await offer.getByLabel("Location").fill("Pune");
  await offer.getByLabel("Offer date").fill(dayFromToday(-50));
  await offer.getByLabel("Joining date").fill(dayFromToday(-45));
  await offer.getByLabel("Offer letter (PDF, at most 5 MB)").setInputFiles({
    name: "offer-signed.pdf",
    mimeType: "application/pdf",
    buffer: minimalPdf("Signed offer"),
  });
  await offer.getByRole("button", { name: "Save the offer" }).click();
  await expect(card.getByTestId("offer-status")).toHaveText("Waiting for the institute to verify it");
  await expect(card.getByText("offer-signed.pdf")).toBeVisible();
});

test("an offer below the threshold owes nothing, and the page says why", async ({ learner, staff, admin }) => {
  test.setTimeout(90_000);
  const batchName = `Low ${Date.now()}`;
  await termsAndBatch(admin, batchName);
  await enrolAndOffer(staff, learner, batchName, "Small Pay Ltd", "2,40,000");
  await staff.page.reload();
  await staff.page.getByRole("button", { name: "Verify offer" }).click();
  await expect(learner.page.getByTestId("fee-decision")).toHaveText(
    "Nothing is owed: the offer's fixed CTC of ₹2,40,000 a year is below the agreement's threshold of ₹3,00,000.",
  );
  await expect(learner.page.getByTestId("instalment")).toHaveCount(0);
});

test("consent to be named is given on My placement and withdrawn from the dashboard", async ({ learner }) => {
  const page = learner.page;
  await openLive(page, "/dashboard");
  // Nothing to accept or withdraw: no panel.
  await expect(page.getByTestId("placement-panel")).toHaveCount(0);
  await page.getByRole("link", { name: /My placement/ }).click();
  await page.getByRole("form", { name: "Give consent" }).getByRole("button", { name: "I agree" }).click();
  await expect(page.getByTestId("consent-given")).toBeVisible();

  await page.getByRole("link", { name: "Back to the dashboard" }).click();
  const panel = page.getByTestId("placement-panel");
  await expect(panel.getByTestId("dashboard-consent")).toContainText("You agreed on");
  await noAxeViolations(page);
  await panel.getByRole("button", { name: "Withdraw my consent" }).click();
  await expect(page.getByTestId("toast-status")).toContainText("Consent withdrawn.");
  await expect(panel).toHaveCount(0);
  await page.getByRole("link", { name: /My placement/ }).click();
  await expect(page.getByRole("form", { name: "Give consent" })).toBeVisible();
  await expect(page.getByTestId("consent-given")).toHaveCount(0);
});
