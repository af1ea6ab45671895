import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { onE2eDatabase } from "../support/e2e-roles";
import { minimalPdf } from "../support/minimal-pdf";
import { expect, openLive, submitIntent, test, type Person } from "./fixtures";

// The learning loop as a trainer and a learner live it, at 1280 and 375 px: the trainer enrols the
// learner by email and sets an assignment; the learner hands in a link and a file (the upload's
// progress shown) and sees "Submitted"; the trainer asks for changes, the learner hands in again,
// the trainer accepts with points; a second assignment handed in after its due time is marked
// late. Each change reaches the other's open tab without a reload.

const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function noSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function noAxeViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  const results = await (include ? builder.include(include) : builder).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** A PDF of about 1.5 MB: enough for the upload to report progress along the way. */
const work = () => Buffer.concat([minimalPdf("my work"), Buffer.alloc(1_500_000, 0x20)]);

/** The trainer's batch, made through its intent, and its page opened live. */
async function batchPage(staff: Person, baseURL: string, name: string) {
  const made = await submitIntent(staff.page, baseURL, "/staff/batches", {
    intent: "create-batch",
    name,
    courseSlug: "python",
    schedule: "Mon–Fri 6–8 pm",
    startDate: dayFromToday(-5),
    endDate: dayFromToday(90),
    payment: "upfront",
  });
  expect(made.data).toMatchObject({ ok: true });
  await openLive(staff.page, "/staff/batches");
  await staff.page.getByRole("link", { name }).click();
  await expect(staff.page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(staff.page.locator("main[data-live=connected]")).toBeVisible();
}

async function handIn(page: Page, title: string, link: string) {
  const item = page.getByTestId("assignment").filter({ hasText: title });
  const box = item.getByRole("form", { name: `Hand in ${title}` });
  await box.getByLabel("Link to your work").fill(link);
  await box.getByLabel(/Your file/).setInputFiles({ name: "work.pdf", mimeType: "application/pdf", buffer: work() });
  await expect(box.getByRole("progressbar")).toBeVisible();
  await expect(box.getByTestId("assignment-progress")).toHaveText("100%");
  await expect(box.getByText("Uploaded: work.pdf")).toBeVisible();
  await box.getByRole("button", { name: /Hand in/ }).click();
  return item;
}

for (const width of [1280, 375] as const) {
  test(`a trainer sets an assignment, a learner hands it in, it is reviewed and accepted (${width} px)`, async ({
    learner,
    staff,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    for (const person of [learner, staff]) await person.page.setViewportSize({ width, height: 900 });
    const batchName = `Python ${width} ${Date.now()}`;
    await batchPage(staff, baseURL!, batchName);
    const trainer = staff.page;
    const batchUrl = new URL(trainer.url()).pathname;

    // Enrol by pasting the learner's email: the dry run first, then Enrol.
    await trainer.getByLabel("Emails").fill(`email\n${learner.account.email}\nnobody@example.com`);
    await trainer.getByRole("button", { name: "Check the list" }).click();
    await expect(trainer.getByTestId("enrolment-plan")).toContainText(`${learner.account.email}: Will be enrolled`);
    await expect(trainer.getByTestId("enrolment-plan")).toContainText("nobody@example.com: No account with this email");
    await trainer.getByRole("button", { name: "Enrol 1 learner" }).click();
    await expect(trainer.getByTestId("toast-status")).toContainText(`1 learner enrolled in ${batchName}.`);
    await expect(trainer.getByTestId("batch-learner")).toHaveCount(1);

    // The assignment: a past due date is refused, then set for tomorrow.
    const form = trainer.getByRole("form", { name: "New assignment" });
    await form.getByLabel("Title").fill("Build a calculator");
    await form.getByLabel("Instructions").fill("Use functions.\n\nHand in the repository and a PDF report.");
    await form.getByRole("button", { name: "Preview" }).click();
    await expect(form.getByRole("region", { name: "Instructions as learners will see them" })).toContainText(
      "Use functions.",
    );
    await form.getByLabel("Due date").fill(dayFromToday(1));
    await form.getByLabel(/Due time/).fill("18:00");
    await form.getByLabel("Hand in").selectOption("both");
    await form.getByLabel("Points (optional)").fill("10");
    await noSidewaysScroll(trainer);
    await noAxeViolations(trainer);
    await form.getByRole("button", { name: "Set assignment" }).click();
    await expect(trainer.getByTestId("toast-status")).toContainText(
      'Assignment "Build a calculator" set for 1 learner.',
    );
    await expect(trainer.getByTestId("batch-assignment")).toContainText("0 of 1 accepted");

    // The learner: one unread task; the assignment in the Tasks popup, not started.
    const page = learner.page;
    await openLive(page, "/dashboard");
    await expect(page.getByTestId("unread-badge-task")).toHaveText("1");
    await page.getByRole("button", { name: /^Tasks/ }).click();
    const item = page.getByTestId("assignment").filter({ hasText: "Build a calculator" });
    await expect(item.getByTestId("assignment-status")).toHaveText("Not started");
    await handIn(page, "Build a calculator", "https://github.com/learner/calculator");
    await expect(item.getByTestId("assignment-status")).toHaveText("Submitted");
    await noSidewaysScroll(page);
    await noAxeViolations(page, "[role=dialog]");

    // The trainer's queue: the submission with its link and file; changes requested.
    // This test's batch only: the other width's learner hands in at the same time.
    await openLive(trainer, `/staff/reviews?batch=${batchUrl.split("/").pop()}`);
    const current = trainer.getByTestId("current-review");
    await expect(current).toContainText("Build a calculator");
    await expect(current.getByRole("link", { name: "https://github.com/learner/calculator" })).toBeVisible();
    await expect(current.getByRole("link", { name: "work.pdf" })).toBeVisible();
    await noSidewaysScroll(trainer);
    await noAxeViolations(trainer);
    const changes = trainer.getByRole("form", { name: "Request changes" });
    await changes.getByLabel("What to change").fill("Handle division by zero.");
    await changes.getByRole("button", { name: "Request changes" }).click();
    await expect(trainer.getByTestId("toast-status")).toContainText("Changes requested.");
    await expect(trainer.getByText("Nothing is waiting for review.")).toBeVisible();

    // The learner's open popup shows the request without a reload; they hand in again.
    await expect(item.getByTestId("assignment-status")).toHaveText("Changes requested");
    await expect(item.getByTestId("assignment-comment")).toContainText("Handle division by zero.");
    await handIn(page, "Build a calculator", "https://github.com/learner/calculator/commit/2");
    await expect(item.getByTestId("assignment-status")).toHaveText("Submitted");

    // It reaches the trainer's queue without a reload; accepted with 8 points.
    await expect(current).toContainText("Build a calculator");
    const accept = trainer.getByRole("form", { name: "Accept" });
    await accept.getByLabel("Points (out of 10)").fill("8");
    await accept.getByRole("button", { name: "Accept" }).click();
    await expect(trainer.getByTestId("toast-status")).toContainText("Accepted.");
    await expect(item.getByTestId("assignment-status")).toHaveText("Accepted, 8 of 10 points");
    await expect(item.getByRole("form", { name: "Hand in Build a calculator" })).toHaveCount(0);

    // A second assignment, whose due time then passes: handed in late, and marked so.
    await openLive(trainer, batchUrl);
    const second = trainer.getByRole("form", { name: "New assignment" });
    await second.getByLabel("Title").fill("Write tests");
    await second.getByLabel("Due date").fill(dayFromToday(1));
    await second.getByLabel("Hand in").selectOption("both");
    await second.getByRole("button", { name: "Set assignment" }).click();
    await expect(trainer.getByTestId("toast-status")).toContainText('Assignment "Write tests" set for 1 learner.');
    await onE2eDatabase(baseURL!, [
      {
        sql: `update assignment set "dueAt" = ? where title = ? and "batchId" = (select id from batch where name = ?)`,
        params: [new Date(Date.now() - 60_000).toISOString(), "Write tests", batchName],
      },
    ]);
    await page.reload();
    await expect(page.locator("main[data-live=connected]")).toBeVisible();
    const late = await handIn(page, "Write tests", "https://github.com/learner/tests");
    await expect(late.getByTestId("assignment-status")).toHaveText("Submitted late");

    // The matrix: both statuses, and its CSV.
    await openLive(trainer, batchUrl);
    await trainer.getByRole("link", { name: "Write tests" }).click();
    await expect(trainer.getByTestId("matrix-row")).toContainText("Submitted late");
    await noSidewaysScroll(trainer);
    await noAxeViolations(trainer);
    const csv = await trainer.request.get(
      (await trainer.getByRole("link", { name: "Download CSV" }).getAttribute("href"))!,
    );
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain("Submitted late");
  });
}
