import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, learnerItems, newPerson, openLive, password, submitIntent, test, type Account } from "./fixtures";

// The staff workspace against the built server that playwright.config.ts starts. Roles cannot
// be set from the browser (by design): the fixtures set them in the server's database.

const toastStatus = (page: Page) => page.getByTestId("toast-status");
const toastAlert = (page: Page) => page.getByTestId("toast-alert");

/** Narrows the list to one learner by name and expands (selects) their card. */
async function selectLearner(page: Page, account: Account) {
  await page.getByLabel("Search by name").fill(account.username);
  await expect(page).toHaveURL(new RegExp(`q=${account.username}`));
  const card = learnerItems(page).filter({ hasText: account.username });
  await expect(learnerItems(page)).toHaveCount(1);
  await card.getByRole("button", { name: new RegExp(account.username) }).click();
  await expect(card).toHaveAttribute("data-selected", "true");
  return card;
}

test.describe("staff workspace", () => {
  test("admin: search, filter, expand, send each kind, live to the learner, clear, offer letter, bulk send", async ({
    browser,
    baseURL,
    admin,
  }) => {
    // A long story: each kind chosen and sent, a bulk send, the offer letter.
    test.slow();
    // Names unique to this run: the server (and its other learners) may outlive one test.
    const tag = Array.from({ length: 6 }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(Math.random() * 26)]).join("");
    const learner = await newPerson(browser, baseURL!, `Leela${tag}`, { course: "VFX" });
    const other = await newPerson(browser, baseURL!, `Leela${tag}`, { course: "Java" });

    const page = admin.page;
    // The dashboard's Admin button leads here.
    await openLive(page, "/dashboard");
    await page.getByRole("button", { name: "Admin", exact: true }).click();
    await expect(page).toHaveURL(/\/staff$/);
    await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
    await expect(page).toHaveTitle("Admin Dashboard · Upskill");
    await expect(page.locator("main[data-live=connected]")).toBeVisible();
    await expect(page.getByRole("button", { name: "User DashBoard" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();

    // Nothing selected: the composer says there is no one to send to, and Send waits for someone.
    const composer = page.getByRole("complementary", { name: "Send to learners" });
    await expect(composer.getByTestId("audience-line")).toHaveText(
      "No one yet: open a learner, tick learners or choose all matching.",
    );
    await expect(composer.getByRole("button", { name: "Send Notice", exact: true })).toBeDisabled();

    // Search (case-insensitive, part of the name) and the course filter, kept in the URL.
    const stem = learner.account.username.slice(0, -4).toUpperCase();
    await page.getByLabel("Search by name").fill(stem);
    await expect(learnerItems(page).filter({ hasText: learner.account.username })).toHaveCount(1);
    await page.getByLabel("Course").selectOption("VFX");
    await expect(page).toHaveURL(/course=VFX/);
    await expect(page.getByRole("option", { name: "All Courses" })).toHaveCount(1);
    const card = await selectLearner(page, learner.account);
    // Opening a learner makes them the audience; Send names them.
    const to = learner.account.username;
    await expect(composer.getByTestId("audience-line")).toHaveText(`To ${to}`);
    await expect(learnerItems(page).filter({ hasText: other.account.username })).toHaveCount(0);
    await expect(card).toContainText(learner.account.email);
    await expect(card).toContainText("9876543210");
    await expect(card).toContainText("No task links yet.");

    for (const [kind, text] of [
      ["Notice", "Please enter a notice."],
      ["Task", "Please enter a task."],
      ["Certificate", "Please enter a certificate."],
    ] as const) {
      await composer.getByLabel("Kind", { exact: true }).selectOption(kind.toLowerCase());
      await composer.getByRole("button", { name: `Send ${kind} to ${to}`, exact: true }).click();
      await expect(toastAlert(page)).toHaveText(new RegExp(`^${text.replace(".", "\\.")}`));
    }

    // The learner's dashboard is open in another browser; the badge moves live.
    await openLive(learner.page, "/");
    await expect(learner.page.getByTestId("unread-badge-notice")).toHaveText("0");

    await composer.getByLabel("Kind", { exact: true }).selectOption("notice");
    await page
      .getByLabel("Notice", { exact: true })
      .fill("<p>Lab closed on <b>Friday</b></p><script>alert(1)</script>");
    await page.getByRole("button", { name: `Send Notice to ${to}`, exact: true }).click();
    await expect(toastStatus(page)).toHaveText("Notice sent successfully!");
    // Focus goes to what the send answered.
    await expect(composer.getByTestId("send-result")).toBeFocused();
    const shownAt = Date.now();
    await expect(learner.page.getByTestId("unread-badge-notice")).toHaveText("1", { timeout: 2000 });
    // The success message stays for 3000 ms, then goes.
    await expect(toastStatus(page)).toHaveText("", { timeout: 4000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(2500);

    await composer.getByLabel("Kind", { exact: true }).selectOption("task");
    await page.getByLabel("Task", { exact: true }).fill("<p>Build a landing page</p>");
    await page.getByRole("button", { name: `Send Task to ${to}`, exact: true }).click();
    await expect(toastStatus(page)).toHaveText("Task sent successfully!");
    await composer.getByLabel("Kind", { exact: true }).selectOption("certificate");
    await page.getByLabel("Certificate note", { exact: true }).fill("<p>Module 1 complete</p>");
    await page.getByRole("button", { name: `Send Certificate to ${to}`, exact: true }).click();
    await expect(toastStatus(page)).toHaveText("Certificate sent successfully!");
    await expect(card).toContainText("1 notice, 1 task, 1 certificate");

    // The learner reads it, formatted and without the script.
    await learner.page.getByRole("button", { name: /Notification/ }).click();
    const popup = learner.page.getByRole("dialog");
    await expect(popup.locator("b", { hasText: "Friday" })).toBeVisible();
    await expect(popup.locator("script")).toHaveCount(0);
    await learner.page.keyboard.press("Escape");

    // A task link the learner submits appears on the open card without a reload.
    const link = `https://github.com/leela/${randomUUID().slice(0, 6)}`;
    const added = await submitIntent(learner.page, baseURL!, "/dashboard", { intent: "add-task-link", link });
    expect(added.status).toBe(200);
    const anchor = card.getByRole("link", { name: link });
    await expect(anchor).toBeVisible({ timeout: 2000 });
    await expect(anchor).toHaveAttribute("target", "_blank");
    await expect(anchor).toHaveAttribute("rel", "noopener noreferrer");

    // Reload keeps the search, the course and the open card.
    await page.reload();
    await expect(page.getByLabel("Search by name")).toHaveValue(learner.account.username);
    await expect(page.getByLabel("Course")).toHaveValue("VFX");
    await expect(card).toHaveAttribute("data-selected", "true");
    await expect(page.locator("main[data-live=connected]")).toBeVisible();

    // Clear, after a confirmation: No keeps, Yes clears.
    await card.getByRole("button", { name: "Clear Notices" }).click();
    const confirm = page.getByRole("dialog");
    await expect(confirm).toContainText(`All notices of ${learner.account.username} will be deleted.`);
    await confirm.getByRole("button", { name: "No" }).click();
    await expect(card).toContainText("1 notice, 1 task");
    await card.getByRole("button", { name: "Clear Notices" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
    await expect(toastStatus(page)).toHaveText("Notices cleared.");
    await expect(card).toContainText("0 notices, 1 task, 1 certificate");

    // The offer letter: written here, read-only for the learner.
    await card.getByLabel("Offer letter").fill("<h2>Offer</h2><p>Welcome aboard as an intern.</p>");
    await card.getByRole("button", { name: "Save Offer Letter" }).click();
    await expect(toastStatus(page)).toHaveText("Offer letter saved.");
    await learner.page.getByRole("button", { name: "Offer letter" }).click();
    await expect(learner.page.getByRole("dialog")).toContainText("Welcome aboard as an intern.");
    await learner.page.keyboard.press("Escape");

    // Bulk send to everyone the search and filter match: the confirmation says how many.
    await page.getByLabel("Search by name").fill(`leela${tag}`);
    await page.getByLabel("Course").selectOption("");
    await expect(learnerItems(page).filter({ hasText: other.account.username })).toHaveCount(1);
    await page.getByLabel("Course").selectOption("Java");
    await expect(learnerItems(page).filter({ hasText: learner.account.username })).toHaveCount(0);
    // Back and Forward step through the searches.
    await page.goBack();
    await expect(page.getByLabel("Course")).toHaveValue("");
    await page.goForward();
    await expect(page.getByLabel("Course")).toHaveValue("Java");
    await composer.getByLabel("Kind", { exact: true }).selectOption("notice");
    await page.getByLabel("Notice", { exact: true }).fill("Java batch: exam on Monday");
    await composer.getByRole("radio", { name: "To 1 matching" }).check();
    await composer.getByRole("button", { name: "Send Notice to 1 matching", exact: true }).click();
    const bulk = page.getByRole("dialog");
    await expect(bulk).toContainText(`To 1 learner in Java whose name, email or phone contains "leela${tag}".`);
    await expect(bulk.getByRole("region", { name: "The notice to send" })).toHaveText(
      /As learners will see it\s*Java batch: exam on Monday/,
    );
    // The buttons say what they do: Cancel sends nothing.
    await expect(bulk.getByRole("button", { name: /^(Yes|No)$/ })).toHaveCount(0);
    await bulk.getByRole("button", { name: "Cancel" }).click();
    await expect(bulk).toBeHidden();
    await composer.getByRole("radio", { name: "To 1 matching" }).check();
    await composer.getByRole("button", { name: "Send Notice to 1 matching", exact: true }).click();
    await bulk.getByRole("button", { name: "Send to 1 learner", exact: true }).click();
    await expect(toastStatus(page)).toHaveText("Notice sent to 1 learner.");
    await other.page.goto("/");
    await expect(other.page.getByTestId("unread-badge-notice")).toHaveText("1");
    await learner.page.reload();
    await expect(learner.page.getByTestId("unread-badge-notice")).toHaveText("0");

    // A bulk send whose set changed since the confirmation is refused with the new count.
    const stale = await submitIntent(page, baseURL!, "/staff", {
      intent: "bulk-send",
      search: `leela${tag}`,
      course: "",
      kind: "notice",
      html: "x",
      expectedCount: "5",
    });
    expect(stale.status).toBe(409);
    expect(stale.data).toMatchObject({ ok: false, count: 2 });

    // The audit log lists these actions, newest first.
    await page.getByRole("link", { name: "Audit Log" }).click();
    await expect(page).toHaveURL(/\/staff\/audit$/);
    // Other tests' admins share the log: this admin's rows, newest first.
    await page.getByLabel("Who").selectOption({ label: admin.account.username });
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await expect(page).toHaveURL(/\/staff\/audit\?who=/);
    const rows = page.locator("tbody tr");
    await expect(rows.locator("td:nth-child(3)")).toHaveText([
      "Bulk sent (notice)",
      "Offer letter",
      "Cleared (notice)",
      "Sent (certificate)",
      "Sent (task)",
      "Sent (notice)",
    ]);
    await page.goBack();
    await page.goBack();

    // A new sign-up appears in the open list without a reload.
    await page.getByLabel("Course").selectOption("");
    await page.getByLabel("Search by name").fill(`Newcomer${tag}`);
    await expect(page.getByText(/^0 learners$/)).toBeVisible();
    const newcomer = await newPerson(browser, baseURL!, `Newcomer${tag}`, { course: "SEO" });
    await expect(learnerItems(page).filter({ hasText: newcomer.account.username })).toBeVisible({
      timeout: 2000,
    });

    expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);

    // The learner's own page.
    await learnerItems(page).getByRole("button").first().click();
    await page.getByRole("link", { name: `Open ${newcomer.account.username}'s page` }).click();
    await expect(page.getByRole("heading", { name: newcomer.account.username, level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(`${newcomer.account.username} · Upskill`);
    expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);

    await page.getByRole("link", { name: "Back to the Admin Dashboard" }).click();
    await page.getByRole("button", { name: "User DashBoard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: `Welcome ${admin.account.username}!` })).toBeVisible();
    for (const c of [learner, other, newcomer]) await c.context.close();
  });

  test("staff: no Clear buttons or admin tools, and the server refuses each clear with its message", async ({
    browser,
    baseURL,
    staff,
  }) => {
    const learner = await newPerson(browser, baseURL!, "Kiran", { course: "AutoCAD" });
    const page = staff.page;
    await openLive(page, "/staff");
    await expect(page.getByRole("link", { name: "Audit Log" })).toHaveCount(0);
    // Logout asks first: No stays in the workspace.
    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "No" }).click();
    await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
    const card = await selectLearner(page, learner.account);
    await expect(card.getByLabel("Offer letter")).toHaveCount(0);
    await expect(card.getByRole("button", { name: /^Clear/ })).toHaveCount(0);

    await page.getByLabel("Kind", { exact: true }).selectOption("task");
    await page.getByLabel("Task", { exact: true }).fill("Submit your AutoCAD drawing");
    await page.getByRole("button", { name: `Send Task to ${learner.account.username}`, exact: true }).click();
    await expect(toastStatus(page)).toHaveText("Task sent successfully!");

    const learnerId = new URL(page.url()).searchParams.get("selected")!;
    for (const [kind, text] of [
      ["notice", "You do not have permission to clear notices."],
      ["task", "You do not have permission to clear tasks."],
      ["certificate", "You do not have permission to clear certificates."],
    ] as const) {
      const refused = await submitIntent(page, baseURL!, "/staff", { intent: "clear", learnerId, kind });
      expect(refused.status).toBe(403);
      expect(refused.data?.message).toBe(text);
    }
    await page.reload();
    await expect(card).toContainText("0 notices, 1 task, 0 certificates");

    // Admin-only: the audit page and the admin intents.
    const audit = await page.goto("/staff/audit");
    expect(audit?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "You do not have access to this page." })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to your dashboard" })).toHaveAttribute("href", "/dashboard");
    const adminIntents: Record<string, string>[] = [
      { intent: "save-offer-letter", learnerId, html: "x" },
      { intent: "change-role", userId: learnerId, role: "admin" },
    ];
    for (const fields of adminIntents) {
      const refused = await submitIntent(page, baseURL!, "/staff", fields);
      expect(refused.status, fields.intent).toBe(403);
      expect(refused.data?.message).toBe("Only an admin can do this.");
    }
    await learner.context.close();
  });

  for (const width of [1280, 375]) {
    test(`staff at ${width} px: a card opened within 100 ms of typing stays open when the search lands, and Send reaches it`, async ({
      browser,
      baseURL,
      staff,
    }) => {
      const tag = `t${randomUUID().slice(0, 6)}`;
      const wanted = await newPerson(browser, baseURL!, `Asha${tag}`);
      const other = await newPerson(browser, baseURL!, `Ravi${tag}`);
      const page = staff.page;
      await page.setViewportSize({ width, height: 800 });
      await openLive(page, `/staff?q=${tag}`);
      await expect(learnerItems(page)).toHaveCount(2);

      // The name typed and the card (already listed) opened in the same moment, well inside the
      // 250 ms before the search runs.
      const name = wanted.account.username;
      const card = learnerItems(page).filter({ hasText: name });
      const box = await page.getByLabel("Search by name").elementHandle();
      const opener = await card.getByRole("button", { name: new RegExp(name) }).elementHandle();
      const gapMs = await page.evaluate(
        ([input, button, text]) => {
          const started = performance.now();
          const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
          setValue.call(input, text);
          input.dispatchEvent(new Event("input", { bubbles: true }));
          button.click();
          return performance.now() - started;
        },
        [box as unknown as HTMLInputElement, opener as unknown as HTMLElement, name] as const,
      );
      expect(gapMs).toBeLessThan(100);

      // The search runs and lands: the list narrows, and the card stays open.
      await expect(page).toHaveURL(new RegExp(`q=${name}`));
      await expect(learnerItems(page)).toHaveCount(1);
      await expect(page).toHaveURL(/selected=/);
      await expect(card).toHaveAttribute("data-selected", "true");

      let compose = page.getByRole("complementary", { name: "Send to learners" });
      if (width === 375) {
        await page.getByRole("button", { name: "Write" }).click();
        compose = page.getByRole("dialog", { name: "Send to learners" });
      }
      await compose.getByLabel("Notice", { exact: true }).fill("Meet me at the front desk.");
      await compose.getByRole("button", { name: /^Send Notice to / }).click();
      await expect(toastStatus(page)).toHaveText("Notice sent successfully!");
      await wanted.page.goto("/");
      await expect(wanted.page.getByTestId("unread-badge-notice")).toHaveText("1");
      for (const person of [wanted, other]) await person.context.close();
    });
  }

  for (const width of [1280, 375]) {
    test(`staff at ${width} px: ticks three learners, previews, and sends to exactly them, lines kept`, async ({
      browser,
      baseURL,
      staff,
    }) => {
      // Four sign-ups and five pages.
      test.slow();
      // A letter first: a search of digits alone looks for a phone number.
      const tag = `t${randomUUID().slice(0, 6)}`;
      const learners = [];
      for (const name of ["Asha", "Ravi", "Priya", "Omkar"]) {
        learners.push(await newPerson(browser, baseURL!, `${name}${tag}`));
      }
      const [ticked, left] = [learners.slice(0, 3), learners[3]!];
      const page = staff.page;
      await page.setViewportSize({ width, height: 800 });
      await openLive(page, `/staff?q=${tag}`);
      await expect(learnerItems(page)).toHaveCount(4);
      for (const person of ticked) {
        await page.getByRole("checkbox", { name: `Select ${person.account.username}` }).check();
      }
      await expect(
        page.getByRole("region", { name: "Learners" }).getByText("3 selected", { exact: true }),
      ).toBeVisible();

      // On a phone the text areas open as a sheet over the list; on a desktop they sit beside it.
      let compose = page.getByRole("complementary", { name: "Send to learners" });
      if (width === 375) {
        await expect(compose).toBeHidden();
        await page.getByRole("button", { name: "Write" }).click();
        compose = page.getByRole("dialog", { name: "Send to learners" });
      }
      const axe = new AxeBuilder({ page }).include(width === 375 ? "[role=dialog]" : "main");
      expect((await axe.analyze()).violations, `${width} px`).toEqual([]);
      await compose
        .getByLabel("Notice", { exact: true })
        .fill("Dear learners,\nclass moves to 4 pm.\n\nBring your laptop.");
      await compose.getByRole("button", { name: "Preview notice" }).click();
      const preview = compose.getByRole("region", { name: "Preview of the notice" });
      await expect(preview.locator("p")).toHaveCount(2);
      await expect(preview.locator("p").first()).toHaveText("Dear learners,class moves to 4 pm.");
      await expect(preview.locator("p").first().locator("br")).toHaveCount(1);

      // Ticked learners are the audience the composer starts with.
      await expect(compose.getByTestId("audience-line")).toHaveText("To 3 selected");
      await compose.getByRole("button", { name: "Send Notice to 3 selected", exact: true }).click();
      const confirm = page.getByRole("dialog", { name: "Send this notice to the selected learners?" });
      const names = ticked.map((person) => person.account.username);
      await expect(confirm).toContainText(`To 3 selected learners: ${names[0]}, ${names[1]} and ${names[2]}.`);
      await expect(confirm.getByRole("region", { name: "The notice to send" }).locator("p")).toHaveCount(2);
      expect((await new AxeBuilder({ page }).include("[role=dialog]").analyze()).violations, `${width} px`).toEqual([]);
      await expect(confirm.getByRole("button", { name: "Cancel" })).toBeVisible();
      await confirm.getByRole("button", { name: "Send to 3 learners", exact: true }).click();
      await expect(toastStatus(page)).toHaveText("Notice sent to 3 learners.");
      await expect(confirm).toBeHidden();
      await expect(page.getByRole("dialog")).toHaveCount(0);
      if (width === 375) {
        // The compose bar is fixed to the window's foot: the footer's links end above it.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const bar = await page.getByRole("button", { name: "Write" }).locator("xpath=../..").boundingBox();
        const links = page.getByRole("navigation", { name: "Site" }).getByRole("link");
        for (const link of await links.all()) {
          const box = (await link.boundingBox())!;
          expect(box.y + box.height, await link.innerText()).toBeLessThanOrEqual(bar!.y);
        }
      }

      // Exactly the three (the server tests check every row): one of them has it, with the lines
      // as typed, and the fourth has nothing.
      const reader = ticked[0]!.page;
      await reader.goto("/");
      await expect(reader.getByTestId("unread-badge-notice")).toHaveText("1");
      await reader.getByRole("button", { name: /Notification/ }).click();
      const popup = reader.getByRole("dialog");
      await expect(popup.locator("p", { hasText: "Dear learners," }).locator("br")).toHaveCount(1);
      await expect(popup.locator("p", { hasText: "Bring your laptop." })).toHaveCount(1);
      await left.page.goto("/");
      await expect(left.page.getByTestId("unread-badge-notice")).toHaveText("0");
      for (const person of learners) await person.context.close();
    });
  }

  test("staff: the ticked learners stay ticked across searches; select all on a page, and clear", async ({
    browser,
    baseURL,
    staff,
  }) => {
    const tag = `t${randomUUID().slice(0, 6)}`;
    const [asha, ravi] = [
      await newPerson(browser, baseURL!, `Asha${tag}`),
      await newPerson(browser, baseURL!, `Ravi${tag}`),
    ];
    const page = staff.page;
    const learners = page.getByRole("region", { name: "Learners" });
    const selectAll = learners.getByRole("checkbox", { name: "Select all on this page" });
    await openLive(page, `/staff?q=Asha${tag}`);
    await page.getByRole("checkbox", { name: `Select ${asha.account.username}` }).check();
    await page.getByLabel("Search by name").fill(`Ravi${tag}`);
    await expect(learnerItems(page)).toHaveText([new RegExp(ravi.account.username)]);
    await expect(selectAll).not.toBeChecked();
    await page.getByRole("checkbox", { name: `Select ${ravi.account.username}` }).check();
    await expect(learners.getByText("2 selected", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Send Notice to 2 selected" })).toBeVisible();

    // Both on one page: select all takes the box off and on again for the whole page.
    await page.getByLabel("Search by name").fill(tag);
    await expect(learnerItems(page)).toHaveCount(2);
    await expect(selectAll).toBeChecked();
    await page.getByRole("checkbox", { name: `Select ${asha.account.username}` }).uncheck();
    await expect(selectAll).toHaveJSProperty("indeterminate", true);
    await selectAll.check();
    await expect(learners.getByText("2 selected", { exact: true })).toBeVisible();
    await learners.getByRole("button", { name: "Clear selection" }).click();
    await expect(page.getByRole("checkbox", { name: /^Select / })).toHaveCount(3);
    for (const box of await page.getByRole("checkbox", { name: /^Select / }).all()) await expect(box).not.toBeChecked();
    await expect(page.getByRole("radio", { name: /selected$/ })).toHaveCount(0);
    for (const person of [asha, ravi]) await person.context.close();
  });

  test("learner: no Admin button, a 403 page for /staff, and 403 from every staff intent", async ({
    baseURL,
    learner,
  }) => {
    const page = learner.page;
    await openLive(page, "/");
    await expect(page.getByRole("heading", { name: `Welcome ${learner.account.username}!` })).toBeVisible();
    await expect(page.getByRole("button", { name: "Admin", exact: true })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Admin Dashboard" })).toHaveCount(0);
    for (const path of ["/staff", "/staff?q=a&page=2", `/staff/learners/${randomUUID()}`, "/staff/audit"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { name: "You do not have access to this page." })).toBeVisible();
    }

    const someone = randomUUID();
    const staffIntents: Record<string, string>[] = [
      { intent: "send", learnerId: someone, kind: "notice", html: "x" },
      { intent: "bulk-send", search: "", course: "", kind: "notice", html: "x", expectedCount: "1" },
      { intent: "send-selected", learnerIds: someone, kind: "notice", html: "x" },
      { intent: "preview", kind: "notice", html: "x" },
      { intent: "clear", learnerId: someone, kind: "notice" },
      { intent: "save-offer-letter", learnerId: someone, html: "x" },
      { intent: "change-role", userId: someone, role: "admin" },
    ];
    for (const fields of staffIntents) {
      const refused = await submitIntent(page, baseURL!, "/staff", fields);
      expect(refused.status, fields.intent).toBe(403);
      expect(refused.data?.message).toBe("Only staff can do this.");
    }
  });

  test("anonymous: each signed-in page sends to the login and back", async ({ page, baseURL }) => {
    const response = await page.request.get(`${baseURL}/staff?q=pri&page=2`, { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe(`/?auth=login&redirectTo=${encodeURIComponent("/staff?q=pri&page=2")}`);
    for (const path of ["/dashboard", "/staff/audit", "/staff/people", `/staff/learners/${randomUUID()}`]) {
      const answer = await page.request.get(`${baseURL}${path}`, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(302);
    }
  });

  test("admin: pages through a search in the URL, and makes a learner staff from the dashboard", async ({
    browser,
    baseURL,
    admin,
  }) => {
    // 21 learners sharing one name prefix: one more than a page holds.
    const prefix = `Pg${randomUUID().slice(0, 6)}`;
    const phoneStem = String(Date.now()).slice(-7);
    const learners: Account[] = [];
    const signUps = await browser.newContext({ baseURL });
    for (let i = 0; i < 21; i++) {
      const id = `${String(i).padStart(2, "0")}`;
      const account = {
        username: `${prefix}x${id}`,
        email: `${prefix.toLowerCase()}-${id}@example.com`,
        course: "Java",
      };
      const response = await signUps.request.post(`${baseURL}/api/auth/sign-up/email`, {
        data: { ...account, phone: `9${phoneStem}${id}`, gender: "male", password, confirmPassword: password },
        headers: { origin: baseURL! },
      });
      expect(response.status(), await response.text()).toBe(200);
      learners.push(account);
    }
    await signUps.close();

    const page = admin.page;
    await openLive(page, `/staff?q=${prefix}`);
    const cards = learnerItems(page);
    await expect(cards.filter({ hasNotText: prefix })).toHaveCount(0);
    await expect(cards).toHaveCount(20);
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(prefix);
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    await page.goBack();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    await page.goForward();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();

    // On a phone: 50 a page shows all 21; then by email, by phone as people write it, and nothing.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByLabel("Per page").selectOption("50");
    await expect(page).toHaveURL(/size=50/);
    await expect(cards).toHaveCount(21);
    await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
    const search = page.getByLabel("Search by name, email or phone");
    await search.fill(learners[7]!.email.toUpperCase());
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(learners[7]!.username);
    await search.fill(`+91 9${phoneStem.slice(0, 4)} ${phoneStem.slice(4)}12`);
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(learners[12]!.username);
    await search.fill(`${prefix}-nobody`);
    await expect(page.getByText(`No learners whose name, email or phone contains "${prefix}-nobody".`)).toBeVisible();
    await expect(page.locator("html")).toHaveJSProperty("scrollWidth", 375);
    await page.getByRole("button", { name: "Clear the search" }).click();
    await expect(search).toHaveValue("");
    await expect(page).not.toHaveURL(/q=/);
    await expect(page.getByText(/^\d+ learners$/)).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });

    // Role change from the card: the learner becomes staff and then sees the Admin button.
    const target = learners[0]!;
    const card = await selectLearner(page, target);
    await expect(card.getByLabel("Role")).toHaveValue("none");
    await card.getByLabel("Role").selectOption("Other…");
    await card.getByLabel("New role name").fill("mentor");
    await card.getByRole("button", { name: "Change Role" }).click();
    await expect(toastStatus(page)).toHaveText("Role changed.");

    const context = await browser.newContext({ baseURL });
    const learnerPage = await context.newPage();
    const signIn = await learnerPage.request.post(`${baseURL}/api/auth/sign-in/email`, {
      data: { email: target.email, password },
      headers: { origin: baseURL! },
    });
    expect(signIn.status()).toBe(200);
    await learnerPage.goto("/");
    await expect(learnerPage.getByRole("button", { name: "Admin", exact: true })).toBeVisible();
    await context.close();
  });

  test("admin: a learner made staff is found under People and roles and made a learner again", async ({
    admin,
    learner,
  }) => {
    const page = admin.page;
    const { username, email } = learner.account;
    await openLive(page, "/staff");
    const card = await selectLearner(page, learner.account);
    await card.getByLabel("Role").selectOption("Other…");
    await card.getByLabel("New role name").fill("trainer");
    await card.getByRole("button", { name: "Change Role" }).click();
    await expect(toastStatus(page)).toHaveText("Role changed.");
    await expect(learnerItems(page)).toHaveCount(0);

    await page.getByRole("link", { name: "People and roles" }).click();
    await expect(page.getByRole("heading", { name: "People and roles" })).toBeVisible();
    await expect(page.getByTestId("person").filter({ hasText: "(you)" })).toHaveCount(1);
    await page.getByLabel("Search by name or email").fill(email.toUpperCase());
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const person = page.getByTestId("person");
    await expect(person).toHaveCount(1);
    await expect(person).toContainText(username);
    await expect(person).toContainText(/trainer since/);
    const select = person.getByLabel(`Role of ${username}`);
    await expect(select).toHaveValue("trainer");
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await new AxeBuilder({ page }).include("main").analyze()).violations, `${width} px`).toEqual([]);
      await expect(page.locator("html")).toHaveJSProperty("scrollWidth", width);
    }

    await select.selectOption("Learner (no role)");
    await person.getByRole("button", { name: "Change Role" }).click();
    await expect(toastStatus(page)).toHaveText("Role changed.");
    await expect(
      page.getByText(`No one with a role has a name or email containing "${email.toUpperCase()}".`),
    ).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/staff");
    await selectLearner(page, learner.account);
  });

  test("admin: a learner's page lists what was sent, as the learner sees it, and deletes one item", async ({
    admin,
    learner,
  }) => {
    // Two sends, a delete, and axe at two widths.
    test.slow();
    const page = admin.page;
    const { username } = learner.account;
    await openLive(page, "/staff");
    const card = await selectLearner(page, learner.account);
    await card.getByRole("link", { name: `Open ${username}'s page` }).click();
    await expect(page.getByRole("heading", { name: "What was sent" })).toBeVisible();
    await expect(page.getByText(`Nothing has been sent to ${username} yet.`)).toBeVisible();
    const send = page.getByRole("complementary", { name: `Send to ${username}` });
    await expect(send.getByTestId("audience-line")).toHaveText(`To ${username}`);
    await send.getByLabel("Notice", { exact: true }).fill("<p>Bring your <b>laptop</b></p>");
    await send.getByRole("button", { name: `Send Notice to ${username}`, exact: true }).click();
    await expect(toastStatus(page)).toHaveText("Notice sent successfully!");
    await expect(send.getByTestId("send-result")).toBeFocused();
    await send.getByLabel("Kind", { exact: true }).selectOption("task");
    await send.getByLabel("Task", { exact: true }).fill("Build a portfolio page");
    await send.getByRole("button", { name: `Send Task to ${username}`, exact: true }).click();
    await expect(toastStatus(page)).toHaveText("Task sent successfully!");

    const items = page.getByTestId("sent-item");
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText(`Task from ${admin.account.username}`);
    await expect(items.nth(1)).toContainText("Not read yet.");
    await expect(items.nth(1).locator("b")).toHaveText("laptop");
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await new AxeBuilder({ page }).include("main").analyze()).violations, `${width} px`).toEqual([]);
      await expect(page.locator("html")).toHaveJSProperty("scrollWidth", width);
    }

    await items.nth(1).getByRole("button", { name: "Delete this notice" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Delete this notice?");
    await expect(dialog).toContainText(`It is removed from ${username}'s notices`);
    await expect(dialog.getByRole("button", { name: "Yes" })).toHaveClass(/bg-red-700/);
    await dialog.getByRole("button", { name: "Yes" }).click();
    await expect(toastStatus(page)).toHaveText("Notice deleted.");
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText("Build a portfolio page");
  });
});
