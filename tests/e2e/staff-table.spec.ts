import AxeBuilder from "@axe-core/playwright";
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { runSql } from "../support/e2e-database";
import { expect, learnerItems, newPerson, openLive, submitIntent, test, type Person } from "./fixtures";

// The staff workspace's table, filters and saved views, at a desktop's and a phone's width.

/** The listed learners' names, in order, as this width shows them. */
async function listed(page: Page, names: string[]) {
  await expect(learnerItems(page)).toHaveText(names.map((name) => new RegExp(name)));
}

/** Three learners of a tag: seen 3 days ago, an hour ago and never; B has a resume; A and B in a new batch. */
async function threeLearners(browser: Parameters<typeof newPerson>[0], baseURL: string, staff: Person) {
  const tag = `t${randomUUID().slice(0, 6)}`;
  const people: Person[] = [];
  for (const name of ["Anu", "Bala", "Chitra"]) people.push(await newPerson(browser, baseURL, `${name}${tag}`));
  const [a, b, c] = people as [Person, Person, Person];
  const idOf = async (person: Person) =>
    String((await runSql(baseURL, `select id from "user" where email = ?`, [person.account.email]))[0]!.id);
  const ids = { a: await idOf(a), b: await idOf(b), c: await idOf(c) };
  // Signed up a second apart, so that joined order is sure.
  for (const [i, key] of (["a", "b", "c"] as const).entries()) {
    const joined = new Date(Date.now() - (3 - i) * 60_000).toISOString();
    await runSql(baseURL, `update "user" set "createdAt" = ?, "lastActiveAt" = ? where id = ?`, [
      joined,
      key === "a" ? new Date(Date.now() - 3 * 86_400_000).toISOString() : key === "b" ? joined : null,
      ids[key],
    ]);
  }
  await runSql(
    baseURL,
    `insert into resume ("learnerId", "storageKey", "fileName", "size", "contentType", "uploadedAt") values (?, ?, 'cv.pdf', 100, 'application/pdf', ?)`,
    [ids.b, `resumes/${ids.b}/e2e.pdf`, new Date().toISOString()],
  );
  const batch = `Batch ${tag}`;
  const created = await submitIntent(staff.page, baseURL, "/staff/batches", {
    intent: "create-batch",
    name: batch,
    courseSlug: "python",
    startDate: "2026-01-05",
    endDate: "2026-06-30",
    payment: "upfront",
  });
  expect(created.data?.ok, created.data?.message).toBe(true);
  const batchId = String((await runSql(baseURL, `select id from batch where name = ?`, [batch]))[0]!.id);
  for (const learnerId of [ids.a, ids.b]) {
    const enrolled = await submitIntent(staff.page, baseURL, "/staff/placement", {
      intent: "enrol",
      learnerId,
      batchId,
      seeking: "no",
    });
    expect(enrolled.data?.ok, enrolled.data?.message).toBe(true);
  }
  return { tag, batch, names: { a: a.account.username, b: b.account.username, c: c.account.username } };
}

for (const width of [1280, 375]) {
  test.describe(`staff table at ${width} px`, () => {
    test("sorts by joined and by last active; filters by batch and no resume, kept by reload and Back; axe", async ({
      browser,
      baseURL,
      staff,
    }) => {
      test.slow();
      const { tag, batch, names } = await threeLearners(browser, baseURL!, staff);
      const page = staff.page;
      await page.setViewportSize({ width, height: 900 });
      await openLive(page, `/staff?q=${tag}`);
      // Newest first by default.
      await listed(page, [names.c, names.b, names.a]);

      const sortBy = async (column: string, option: string) => {
        if (width === 1280) await page.getByRole("button", { name: column, exact: true }).click();
        else await page.getByLabel("Sort by").selectOption({ label: option });
      };
      await sortBy("Joined", "Joined (oldest first)");
      await expect(page).toHaveURL(/sort=joined&dir=asc/);
      await listed(page, [names.a, names.b, names.c]);
      if (width === 1280) {
        await expect(page.getByRole("columnheader", { name: "Joined" })).toHaveAttribute("aria-sort", "ascending");
      }
      await sortBy("Last active", "Last active (newest first)");
      await expect(page).toHaveURL(/sort=active&dir=desc/);
      // Never seen comes last.
      await listed(page, [names.b, names.a, names.c]);

      await page.getByLabel("Batch").selectOption({ label: batch });
      await expect(page).toHaveURL(/batch=/);
      await listed(page, [names.b, names.a]);
      await page.getByText("More filters").click();
      await page.getByLabel("Has no resume").check();
      await expect(page).toHaveURL(/noResume=1/);
      await listed(page, [names.a]);
      if (width === 1280) {
        // Her row: no resume, seen three days ago, in the batch.
        await expect(learnerItems(page)).toContainText(batch);
        await expect(learnerItems(page).getByRole("cell").nth(5)).toHaveText("No");
      }

      await page.reload();
      await expect(page.locator("main[data-live=connected]")).toBeVisible();
      await listed(page, [names.a]);
      await expect(page.getByLabel("Has no resume")).toBeChecked();
      await expect(page.getByLabel("Batch")).toHaveValue(/.+/);

      await page.goBack();
      await listed(page, [names.b, names.a]);
      await expect(page.getByLabel("Has no resume")).not.toBeChecked();
      await page.goBack();
      await listed(page, [names.b, names.a, names.c]);
      await expect(page.getByLabel("Batch")).toHaveValue("");

      const axe = await new AxeBuilder({ page }).include("main").analyze();
      expect(axe.violations, `${width} px`).toEqual([]);
    });

    test("saves a view; its link opens the same filters and sort in another staff member's browser", async ({
      browser,
      baseURL,
      staff,
      admin,
    }) => {
      test.slow();
      const { tag, batch, names } = await threeLearners(browser, baseURL!, staff);
      const page = staff.page;
      await page.setViewportSize({ width, height: 900 });
      await openLive(page, `/staff?q=${tag}&sort=name&dir=desc`);
      await page.getByLabel("Batch").selectOption({ label: batch });
      await listed(page, [names.b, names.a]);
      await page.getByText("Saved views").click();
      await page.getByLabel("Save these filters and sort as").fill(`Mine ${tag}`);
      await page.getByRole("button", { name: "Save view" }).click();
      await expect(page.getByTestId("toast-status")).toHaveText(`View "Mine ${tag}" saved.`);
      const link = page.getByRole("link", { name: `Mine ${tag}` });
      await expect(link).toBeVisible();
      const href = await link.getAttribute("href");
      expect(href).toMatch(/^\/staff\?view=/);

      // Another staff member opens the link: the same list, in the same order; the view is not theirs.
      const other = admin.page;
      await other.setViewportSize({ width, height: 900 });
      await openLive(other, href!);
      await expect(other).toHaveURL(/sort=name&dir=desc/);
      await expect(other).toHaveURL(/batch=/);
      await listed(other, [names.b, names.a]);
      await expect(other.getByRole("link", { name: `Mine ${tag}` })).toHaveCount(0);
      const axe = await new AxeBuilder({ page: other }).include("main").analyze();
      expect(axe.violations, `${width} px`).toEqual([]);
    });

    test("sends to everyone matching after a confirmation that names them and says what it does", async ({
      browser,
      baseURL,
      staff,
    }) => {
      test.slow();
      const { tag, batch, names } = await threeLearners(browser, baseURL!, staff);
      const page = staff.page;
      await page.setViewportSize({ width, height: 900 });
      await openLive(page, `/staff?q=${tag}`);
      await page.getByLabel("Batch").selectOption({ label: batch });
      await listed(page, [names.b, names.a]);
      let compose = page.getByRole("complementary", { name: "Send to learners" });
      if (width === 375) {
        await page.getByRole("button", { name: "Write" }).click();
        compose = page.getByRole("dialog", { name: "Send to learners" });
      }
      await compose.getByLabel("Notice", { exact: true }).fill(`Batch meeting ${tag}`);
      await compose.getByRole("radio", { name: "To 2 matching" }).check();
      await expect(compose.getByTestId("audience-line")).toHaveText("To 2 matching");
      await compose.getByRole("button", { name: "Send Notice to 2 matching", exact: true }).click();
      const confirm = page.getByRole("dialog", { name: "Send this notice to all matching learners?" });
      await expect(confirm).toContainText(
        `To 2 learners whose name, email or phone contains "${tag}", in the batch ${batch}.`,
      );
      await expect(confirm.getByRole("button", { name: "Cancel" })).toBeVisible();
      await confirm.getByRole("button", { name: "Send to 2 learners" }).click();
      await expect(page.getByTestId("toast-status")).toHaveText("Notice sent to 2 learners.");
      const sent = await runSql(baseURL!, `select count(*) as n from message where body like ?`, [
        `%Batch meeting ${tag}%`,
      ]);
      expect(Number(sent[0]!.n)).toBe(2);
    });
  });
}

test("sorts by assignments overdue at 1280 px, most first and then fewest", async ({ browser, baseURL, staff }) => {
  test.slow();
  const { tag, names } = await threeLearners(browser, baseURL!, staff);
  const idOf = async (name: string) =>
    String((await runSql(baseURL!, `select id from "user" where username = ?`, [name]))[0]!.id);
  // Two assignments past due: Chitra has both waiting, Anu one (the other handed in), Bala none.
  const day = 86_400_000;
  const assignmentIds: string[] = [];
  for (const daysAgo of [2, 1]) {
    const id = randomUUID();
    assignmentIds.push(id);
    await runSql(
      baseURL!,
      `insert into assignment (id, "batchId", title, instructions, "dueAt", "handIn", points, "createdBy", "createdByName", "createdAt")
       values (?, null, ?, '<p>Do it</p>', ?, 'link', null, null, 'Trainer', ?)`,
      [
        id,
        `Overdue ${tag} ${daysAgo}`,
        new Date(Date.now() - daysAgo * day).toISOString(),
        new Date(Date.now() - 9 * day).toISOString(),
      ],
    );
  }
  const statuses: [string, string[]][] = [
    [names.c, ["not-started", "changes-requested"]],
    [names.a, ["not-started", "submitted"]],
  ];
  for (const [name, both] of statuses) {
    const learnerId = await idOf(name);
    for (const [i, status] of both.entries()) {
      await runSql(
        baseURL!,
        `insert into learner_assignment ("assignmentId", "learnerId", status, points, "submittedAt", "reviewedAt", "updatedAt")
         values (?, ?, ?, null, null, null, ?)`,
        [assignmentIds[i]!, learnerId, status, new Date().toISOString()],
      );
    }
  }
  const page = staff.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  await openLive(page, `/staff?q=${tag}`);
  await listed(page, [names.c, names.b, names.a]);
  const overdueCells = learnerItems(page).locator("td:last-child");
  await expect(overdueCells).toHaveText(["2", "0", "1"]);

  await page.getByRole("button", { name: "Assignments overdue", exact: true }).click();
  await expect(page).toHaveURL(/sort=overdue&dir=desc/);
  await listed(page, [names.c, names.a, names.b]);
  await expect(page.getByRole("columnheader", { name: "Assignments overdue" })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  await page.getByRole("button", { name: "Assignments overdue", exact: true }).click();
  await expect(page).toHaveURL(/sort=overdue&dir=asc/);
  await listed(page, [names.b, names.a, names.c]);
  await expect(overdueCells).toHaveText(["0", "1", "2"]);
});
