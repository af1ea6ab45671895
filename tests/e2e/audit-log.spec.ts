import AxeBuilder from "@axe-core/playwright";
import { randomUUID } from "node:crypto";
import { runSql } from "../support/e2e-database";
import { expect, newPerson, openLive, submitIntent, test, type Person } from "./fixtures";

// The admins' audit log at a desktop's and a phone's width: its filters in the address, the
// link from a row to its learner and back, and the text a row sent.

for (const width of [1280, 375]) {
  test.describe(`audit log at ${width} px`, () => {
    test("filters by who and by learner, kept by reload and Back; a row opens its learner; the sent text shows; axe", async ({
      browser,
      baseURL,
      admin,
      staff,
    }) => {
      test.slow();
      const tag = `a${randomUUID().slice(0, 6)}`;
      const asha = await newPerson(browser, baseURL!, `Asha${tag}`);
      const ravi = await newPerson(browser, baseURL!, `Ravi${tag}`);
      const idOf = async (person: Person) =>
        String((await runSql(baseURL!, `select id from "user" where email = ?`, [person.account.email]))[0]!.id);
      const [ashaId, raviId] = [await idOf(asha), await idOf(ravi)];
      await asha.context.close();
      await ravi.context.close();

      // The staff member sends Asha a notice with markup; the admin sends Ravi a long task.
      const notice = await submitIntent(staff.page, baseURL!, "/staff", {
        intent: "send",
        learnerId: ashaId,
        kind: "notice",
        html: `Exam on Monday for ${tag} <b>in room 4</b><img src=x onerror="document.title='owned'">`,
      });
      expect(notice.status, notice.data?.message).toBe(200);
      const task = `Week plan ${tag}: ${"Read the chapter and practise the exercises. ".repeat(10)}The end.`;
      const sent = await submitIntent(admin.page, baseURL!, "/staff", {
        intent: "send",
        learnerId: raviId,
        kind: "task",
        html: task,
      });
      expect(sent.status, sent.data?.message).toBe(200);

      const page = admin.page;
      await page.setViewportSize({ width, height: 900 });
      await openLive(page, "/staff/audit");
      const rows = page.locator("tbody tr");
      const axe = async () => {
        const found = await new AxeBuilder({ page }).include("main").analyze();
        expect(found.violations, `${width} px`).toEqual([]);
      };

      // By who: the staff member's one send, with its text as text.
      await page.getByLabel("Who").selectOption({ label: staff.account.username });
      await page.getByRole("button", { name: "Filter", exact: true }).click();
      await expect(page).toHaveURL(/[?&]who=/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Sent (notice)");
      await expect(rows.first().getByTestId("sent-text")).toHaveText(`Exam on Monday for ${tag} in room 4`);
      await expect(page).not.toHaveTitle("owned");
      await axe();

      // By learner, searched by name, with anyone acting.
      await page.getByLabel("Who").selectOption("");
      await page.getByLabel("Learner name or email").fill(ravi.account.username.toLowerCase());
      await page.getByRole("button", { name: "Filter", exact: true }).click();
      await expect(page).toHaveURL(/[?&]q=ravi/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Sent (task)");
      // A long text: its start, then the whole of it.
      const text = rows.first().getByTestId("sent-text");
      await expect(text).toHaveText(/^Week plan .*…$/);
      await rows.first().getByRole("link", { name: "Show the whole text" }).click();
      await expect(page).toHaveURL(/[?&]text=/);
      await expect(text).toHaveText(task);
      await axe();

      // Reload keeps the filters and the open text; Back steps through them.
      await page.reload();
      await expect(page.locator("main[data-live=connected]")).toBeVisible();
      await expect(page.getByLabel("Learner name or email")).toHaveValue(ravi.account.username.toLowerCase());
      await expect(text).toHaveText(task);
      await page.goBack();
      await expect(text).toHaveText(/…$/);
      await page.goBack();
      await expect(page.getByLabel("Who")).toHaveValue(/.+/);
      await expect(page.getByLabel("Learner name or email")).toHaveValue("");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Sent (notice)");

      // The row's link opens Asha in the staff workspace; her page links back to her entries.
      await rows.first().getByRole("link", { name: asha.account.username }).click();
      await expect(page).toHaveURL(new RegExp(`/staff/learners/${ashaId}$`));
      await expect(page.getByRole("heading", { name: asha.account.username, level: 1 })).toBeVisible();
      await page.getByRole("link", { name: "Staff actions on this learner" }).click();
      await expect(page).toHaveURL(new RegExp(`/staff/audit\\?learner=${ashaId}$`));
      await expect(rows).toHaveCount(1);
      await expect(page.getByRole("search", { name: "Filter the audit log" })).toContainText(asha.account.username);
      await axe();
      // Any learner again: the search field is back.
      await page.getByRole("link", { name: "Any learner" }).click();
      await expect(page).toHaveURL(/\/staff\/audit$/);
      await expect(page.getByLabel("Learner name or email")).toBeVisible();

      // A staff member may not read the log, whatever its filters.
      const refused = await staff.page.goto(`/staff/audit?learner=${ashaId}`);
      expect(refused?.status()).toBe(403);
      // A bad address is a 400 that says why.
      const bad = await page.goto("/staff/audit?from=2026-02-30");
      expect(bad?.status()).toBe(400);
      await expect(page.getByText("Please enter a date as YYYY-MM-DD.")).toBeVisible();
    });
  });
}
