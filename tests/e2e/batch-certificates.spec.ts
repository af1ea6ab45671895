import AxeBuilder from "@axe-core/playwright";
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { calendarDate } from "~/core/dates";
import { onE2eDatabase } from "../support/e2e-roles";
import { expect, newPerson, openLive, submitIntent, test } from "./fixtures";

// A batch's certificates in a real browser, at 1280 and 375 px: the batch page's confirmation
// lists exactly the learners with every assignment accepted (not one with work still waiting),
// issuing makes their certificates, and the learner's Training Certificate popup shows it.

async function userId(page: Page): Promise<string> {
  const session = await page.request.get("/api/auth/get-session");
  return ((await session.json()) as { user: { id: string } }).user.id;
}

const inDays = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), "Asia/Kolkata");

for (const width of [1280, 375] as const) {
  test(`the batch certificate issue lists exactly the completers and issues theirs (${width} px)`, async ({
    baseURL,
    browser,
    learner,
    staff,
  }) => {
    test.setTimeout(240_000);
    const base = baseURL!;
    const other = await newPerson(browser, base, "Waiting");
    for (const page of [learner.page, staff.page]) await page.setViewportSize({ width, height: 900 });
    const [learnerId, otherId] = [await userId(learner.page), await userId(other.page)];
    const act = async (page: Page, path: string, fields: Record<string, string>) => {
      const answer = await submitIntent(page, base, path, fields);
      expect(answer.data, `${fields.intent}: ${answer.data?.message}`).toMatchObject({ ok: true });
      return answer.data as Record<string, unknown>;
    };

    const batchName = `Python ${width} ${randomUUID().slice(0, 6)}`;
    await act(staff.page, "/staff/batches", {
      intent: "create-batch",
      name: batchName,
      courseSlug: "python",
      schedule: "Mon–Fri 6–8 pm",
      startDate: inDays(-30),
      endDate: inDays(60),
      payment: "upfront",
    });
    const { rows } = await onE2eDatabase(base, [{ sql: "SELECT id FROM batch WHERE name = ?", params: [batchName] }]);
    const batchId = String(rows[0]!.id);
    await act(staff.page, "/staff/batches", {
      intent: "enrol-learners",
      batchId,
      learnerIds: `${learnerId},${otherId}`,
    });
    const created = await act(staff.page, "/staff/batches", {
      intent: "create-assignment",
      batchId,
      title: "Build a calculator",
      instructions: "Hand in the repository link.",
      dueDate: inDays(5),
      dueTime: "18:00",
      handIn: "link",
      points: "",
    });
    const assignmentId = created.assignmentId as string;
    for (const person of [learner, other]) {
      await act(person.page, "/dashboard", {
        intent: "submit-assignment",
        assignmentId,
        link: "https://github.com/learner/calc",
      });
    }
    // The learner's work is accepted; the other's is still waiting for review.
    await act(staff.page, "/staff/batches", {
      intent: "review-submission",
      assignmentId,
      learnerId,
      decision: "accept",
      comment: "Well done.",
    });

    const trainer = staff.page;
    await openLive(trainer, `/staff/batches/${batchId}`);
    await expect(trainer.getByTestId("batch-completers-summary")).toHaveText("1 learner has all assignments accepted.");
    const form = trainer.getByRole("group", { name: "Certificate (PDF)" });
    await form.getByLabel("Title").fill("Python Programming");
    await form.getByLabel("Hours (optional)").fill("60");
    await form
      .getByRole("button", { name: "Issue certificates to learners of this batch who have all assignments accepted" })
      .click();
    const dialog = trainer.getByRole("dialog", { name: "Issue this certificate to 1 learner?" });
    await expect(dialog).toBeVisible();
    const listed = dialog.getByTestId("batch-certificate-list").getByRole("listitem");
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText(learner.account.username);
    await expect(dialog).not.toContainText(other.account.username);
    expect(await trainer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page: trainer }).analyze()).violations).toEqual([]);
    await trainer.screenshot({ path: `test-results/batch-certificates-confirm-${width}.png` });

    await dialog.getByRole("button", { name: "Issue to 1 learner" }).click();
    await expect(trainer.getByTestId("toast-status")).toContainText("Issuing certificates to 1 learner.");
    await expect(dialog).toBeHidden();

    // The learner's Training Certificate popup lists it once the job has made it.
    await expect
      .poll(
        async () => {
          const { rows: made } = await onE2eDatabase(base, [
            { sql: `SELECT count(*) AS n FROM document WHERE "batchId" = ?`, params: [batchId] },
          ]);
          return Number(made[0]!.n);
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await openLive(learner.page, "/dashboard");
    await learner.page.getByRole("button", { name: /^Training Certificate/ }).click();
    const popup = learner.page.getByRole("dialog", { name: "Training Certificates" });
    const card = popup.getByTestId("learner-document");
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("Python Programming");
    await expect(card).toContainText("Valid");
    expect((await new AxeBuilder({ page: learner.page }).analyze()).violations).toEqual([]);

    // Asked again, the batch page says she has it, and nobody is issued a second.
    await openLive(trainer, `/staff/batches/${batchId}`);
    await expect(trainer.getByTestId("batch-completers-summary")).toHaveText(
      "1 learner has all assignments accepted; 1 of them already has this batch's certificate.",
    );
    await form
      .getByRole("button", { name: "Issue certificates to learners of this batch who have all assignments accepted" })
      .click();
    await expect(trainer.getByTestId("toast-alert")).toContainText(
      "Every learner of this batch who has all assignments accepted already has its certificate.",
    );
    expect((await new AxeBuilder({ page: trainer }).analyze()).violations).toEqual([]);
    await trainer.screenshot({ path: `test-results/batch-certificates-page-${width}.png`, fullPage: true });
    await other.context.close();
  });
}
