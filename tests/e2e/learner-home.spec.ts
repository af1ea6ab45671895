import AxeBuilder from "@axe-core/playwright";
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { calendarDate } from "~/core/dates";
import { onE2eDatabase } from "../support/e2e-roles";
import { expect, openLive, submitIntent, test } from "./fixtures";

// The learner's home in a real browser: what is due, the offer letter awaiting a reply (counted
// on its badge), and a batch's progress rising when the trainer accepts an assignment.

async function userId(page: Page): Promise<string> {
  const session = await page.request.get("/api/auth/get-session");
  return ((await session.json()) as { user: { id: string } }).user.id;
}

const inDays = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), "Asia/Kolkata");

for (const width of [1280, 375] as const) {
  test(`the home lists what is due, the offer awaiting a reply on its badge, and progress rising (${width} px)`, async ({
    baseURL,
    learner,
    admin,
  }) => {
    const base = baseURL!;
    const page = learner.page;
    await page.setViewportSize({ width, height: 900 });
    const learnerId = await userId(page);
    const act = async (path: string, fields: Record<string, string>) => {
      const answer = await submitIntent(admin.page, base, path, fields);
      expect(answer.data, `${fields.intent}: ${answer.data?.message}`).toMatchObject({ ok: true });
      return answer.data as Record<string, unknown>;
    };

    const batchName = `Python ${randomUUID().slice(0, 6)}`;
    await act("/staff/batches", {
      intent: "create-batch",
      name: batchName,
      courseSlug: "python",
      schedule: "Mon–Fri 6–8 pm",
      startDate: inDays(-10),
      endDate: inDays(100),
      payment: "upfront",
    });
    const { rows } = await onE2eDatabase(base, [{ sql: "SELECT id FROM batch WHERE name = ?", params: [batchName] }]);
    const id = String(rows[0]!.id);
    await act("/staff/batches", { intent: "enrol-learners", batchId: id, learnerIds: learnerId });
    const created = await act("/staff/batches", {
      intent: "create-assignment",
      batchId: id,
      title: "Build a calculator",
      instructions: "Hand in the repository link.",
      dueDate: inDays(5),
      dueTime: "18:00",
      handIn: "link",
      points: "",
    });

    await openLive(page, "/dashboard");
    const dueNext = page.getByTestId("due-next");
    await expect(dueNext).toContainText("Build a calculator");
    await expect(dueNext).toContainText("Not started");
    await expect(page.getByTestId("batch-progress")).toContainText("0 of 1 assignments accepted");
    await expect(page.getByTestId("unread-badge-offer")).toHaveText("0");

    await openLive(admin.page, `/staff/learners/${learnerId}`);
    const form = admin.page.getByRole("group", { name: "Offer letter (PDF)" });
    await form.getByLabel("Position").fill("Junior Web Developer");
    await form.getByLabel("Start date").fill("2099-01-04");
    await form.getByLabel("Location").fill("Pune");
    await form.getByLabel("Amount in rupees").fill("25,000");
    await form.getByLabel("Reply by").fill("2099-01-01");
    await form.getByLabel("Letter text").fill("We are pleased to offer you this position.");
    await form.getByRole("button", { name: "Issue offer letter" }).click();
    await expect(admin.page.getByTestId("toast-status")).toContainText("Offer letter issued to");
    await expect(page.getByTestId("unread-badge-offer")).toHaveText("1");
    const needsReply = page.getByTestId("needs-reply");
    await expect(needsReply).toContainText("Reply to the offer: Junior Web Developer");
    await expect(needsReply).toContainText("Reply by 1 January 2099");

    const submitted = await submitIntent(page, base, "/dashboard", {
      intent: "submit-assignment",
      assignmentId: created.assignmentId as string,
      link: "https://github.com/learner/calc",
    });
    expect(submitted.data).toMatchObject({ ok: true });
    await act("/staff/batches", {
      intent: "review-submission",
      assignmentId: created.assignmentId as string,
      learnerId,
      decision: "accept",
      comment: "Well done.",
    });
    await expect(page.getByTestId("batch-progress")).toContainText("1 of 1 assignments accepted");
    await expect(dueNext).toContainText("Nothing is due.");
    await expect(page.getByTestId("from-trainer")).toContainText("Build a calculator: Well done.");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}
