import AxeBuilder from "@axe-core/playwright";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { calendarDate } from "~/core/dates";
import { onE2eDatabase } from "../support/e2e-roles";
import { expect, learnerItems, newAccount, openLive, signUpByApi, submitIntent, test } from "./fixtures";

// The workspace's bulk actions in a real browser: three ticked learners enrolled in a batch (and
// the batch page lists them), every learner matching the search enrolled after a count that
// changed under the confirmation, and the ticked learners exported as CSV.

const inDays = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), "Asia/Kolkata");

for (const width of [1280, 375] as const) {
  test(`bulk enrolment and export from the workspace selection and search (${width} px)`, async ({
    baseURL,
    playwright,
    staff,
    admin,
  }) => {
    test.slow();
    const base = baseURL!;
    const page = staff.page;
    await page.setViewportSize({ width, height: 900 });
    const api = await playwright.request.newContext();
    const tag = `b${randomUUID().slice(0, 6)}`;
    const signUp = async (name: string) => (await signUpByApi(api, base, newAccount(`${name}${tag}`))).username;
    const names = [];
    for (const name of ["Asha", "Ravi", "Priya", "Omkar"]) names.push(await signUp(name));
    const batchNames = [`Python ${tag} Oct`, `Python ${tag} Nov`];
    const batchIds: string[] = [];
    for (const name of batchNames) {
      const created = await submitIntent(admin.page, base, "/staff/batches", {
        intent: "create-batch",
        name,
        courseSlug: "python",
        startDate: inDays(-10),
        endDate: inDays(100),
        payment: "upfront",
      });
      expect(created.data).toMatchObject({ ok: true });
      const { rows } = await onE2eDatabase(base, [{ sql: "SELECT id FROM batch WHERE name = ?", params: [name] }]);
      batchIds.push(String(rows[0]!.id));
    }

    await openLive(page, `/staff?q=${tag}`);
    await expect(learnerItems(page)).toHaveCount(4);
    const ticked = names.slice(0, 3);
    for (const name of ticked) await page.getByRole("checkbox", { name: `Select ${name}` }).check();
    const bar = page.getByRole("region", { name: "Act on learners" });
    await expect(bar.getByRole("radio", { name: "The 3 learners selected" })).toBeChecked();
    expect((await new AxeBuilder({ page }).include("main").analyze()).violations, `${width} px`).toEqual([]);

    // Three ticked, into the first batch: the button says what it does.
    await bar.getByRole("button", { name: "Enrol in a batch" }).click();
    let dialog = page.getByRole("dialog", { name: "Enrol these learners in a batch?" });
    await expect(dialog).toContainText(`3 selected learners: ${ticked[0]}, ${ticked[1]} and ${ticked[2]}.`);
    await dialog.getByLabel("Batch").selectOption({ label: batchNames[0]! });
    expect((await new AxeBuilder({ page }).include("[role=dialog]").analyze()).violations, `${width} px`).toEqual([]);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeVisible();
    await dialog.getByRole("button", { name: `Enrol 3 learners in ${batchNames[0]}` }).click();
    await expect(page.getByTestId("toast-status")).toHaveText(`3 learners enrolled in ${batchNames[0]}.`);
    await expect(dialog).toBeHidden();

    // The ticked learners' CSV: exactly them.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      bar.getByRole("button", { name: "Export CSV of the selected" }).click(),
    ]);
    const csv = await readFile((await download.path())!, "utf8");
    const rows = csv.trimEnd().split("\r\n");
    expect(rows).toHaveLength(4);
    for (const name of ticked) expect(rows.filter((row) => row.includes(`,${name},`))).toHaveLength(1);
    expect(csv).not.toContain(names[3]!);

    // Everyone matching the search, into the second batch; a fifth sign-up changes the count.
    await bar.getByRole("radio", { name: "All 4 learners matching" }).check();
    await bar.getByRole("button", { name: "Enrol in a batch" }).click();
    dialog = page.getByRole("dialog", { name: "Enrol these learners in a batch?" });
    await expect(dialog).toContainText(`4 learners whose name, email or phone contains "${tag}".`);
    await dialog.getByLabel("Batch").selectOption({ label: batchNames[1]! });
    const late = await signUp("Zoya");
    await dialog.getByRole("button", { name: `Enrol 4 learners in ${batchNames[1]}` }).click();
    await expect(dialog).toContainText("The number of matching learners changed. Check the list and confirm again.");
    await dialog.getByRole("button", { name: `Enrol 5 learners in ${batchNames[1]}` }).click();
    await expect(page.getByTestId("toast-status")).toHaveText(`5 learners enrolled in ${batchNames[1]}.`);

    // The batch pages list them.
    await openLive(page, `/staff/batches/${batchIds[0]}`);
    for (const name of ticked) await expect(page.getByRole("main")).toContainText(name);
    await expect(page.getByRole("main")).not.toContainText(names[3]!);
    await openLive(page, `/staff/batches/${batchIds[1]}`);
    for (const name of [...names, late]) await expect(page.getByRole("main")).toContainText(name);
    await api.dispose();
  });
}
