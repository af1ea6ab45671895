import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { setRole } from "../support/e2e-roles";

// The staff dashboard against the built server that playwright.config.ts starts.
// Roles cannot be set from the browser (by design), so the test sets them in the server's
// database, as `npm run role` does.

const password = "staff-e2e-password-1";

interface Account {
  username: string;
  email: string;
  course: string;
}

/** A new account, signed in within its own browser context; its page shows the signed-in view. */
async function signedIn(browser: Browser, baseURL: string, name: string, course = "Python") {
  const context = await browser.newContext();
  const page = await context.newPage();
  const id = randomUUID().slice(0, 8);
  const account: Account = { username: `${name}${id}`, email: `${name.toLowerCase()}-${id}@example.com`, course };
  const response = await page.request.post(`${baseURL}/api/auth/sign-up/email`, {
    data: { ...account, phone: "9876543210", gender: "female", password, confirmPassword: password },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
  return { context, page, account };
}

async function openAdminView(page: Page) {
  await page.goto("/");
  // The event stream connects once the page is hydrated: a click before that would be lost.
  await expect(page.locator("main[data-live=connected]")).toBeVisible();
  await page.getByRole("button", { name: "Admin", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
}

/** Narrows the list to one learner by name and expands (selects) their card. */
async function selectLearner(page: Page, account: Account) {
  await page.getByLabel("Search by name").fill(account.username);
  const card = page.getByTestId("learner-card").filter({ hasText: account.username });
  await expect(page.getByTestId("learner-card")).toHaveCount(1);
  await card.getByRole("button", { name: new RegExp(account.username) }).click();
  await expect(card).toHaveAttribute("data-selected", "true");
  return card;
}

test.describe("staff dashboard", () => {
  test("admin: search, filter, expand, send each kind, live to the learner, clear, offer letter, bulk send", async ({
    browser,
    baseURL,
  }) => {
    // Names unique to this run: the server (and its other learners) may outlive one test.
    const tag = Array.from({ length: 6 }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(Math.random() * 26)]).join("");
    const admin = await signedIn(browser, baseURL!, "Admin");
    const learner = await signedIn(browser, baseURL!, `Leela${tag}`, "VFX");
    const other = await signedIn(browser, baseURL!, `Leela${tag}`, "Java");
    await setRole(baseURL!, admin.account.email, "admin");

    const page = admin.page;
    await openAdminView(page);
    await expect(page.getByRole("button", { name: "User DashBoard" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();

    // Nothing selected, then empty text: the exact messages in the error line.
    const errorLine = page.locator("main p[role=alert]").first();
    await page.getByRole("button", { name: "Send Notice", exact: true }).click();
    await expect(errorLine).toHaveText("Select a learner first.");

    // Search (case-insensitive, part of the name) and the course filter.
    const stem = learner.account.username.slice(0, -4).toUpperCase();
    await page.getByLabel("Search by name").fill(stem);
    await expect(page.getByTestId("learner-card").filter({ hasText: learner.account.username })).toHaveCount(1);
    await page.getByLabel("Course").selectOption("VFX");
    await expect(page.getByRole("option", { name: "All Courses" })).toHaveCount(1);
    const card = await selectLearner(page, learner.account);
    await expect(page.getByTestId("learner-card").filter({ hasText: other.account.username })).toHaveCount(0);
    await expect(card).toContainText(learner.account.email);
    await expect(card).toContainText("9876543210");
    await expect(card).toContainText("No task links yet.");

    for (const [kind, text] of [
      ["Notice", "Please enter a notice."],
      ["Task", "Please enter a task."],
      ["Certificate", "Please enter a certificate."],
    ] as const) {
      await page.getByRole("button", { name: `Send ${kind}`, exact: true }).click();
      await expect(errorLine).toHaveText(text);
    }

    // The learner's dashboard is open in another browser; the badge moves live.
    await learner.page.goto("/");
    await expect(learner.page.locator("main[data-live=connected]")).toBeVisible();
    await expect(learner.page.getByTestId("unread-badge")).toHaveText("0");

    const status = page.locator("main p[role=status]").first();
    await page
      .getByLabel("Notice", { exact: true })
      .fill("<p>Lab closed on <b>Friday</b></p><script>alert(1)</script>");
    await page.getByRole("button", { name: "Send Notice", exact: true }).click();
    await expect(status).toHaveText("Notice sent successfully!");
    const shownAt = Date.now();
    await expect(learner.page.getByTestId("unread-badge")).toHaveText("1", { timeout: 2000 });
    // The success message stays for 3000 ms, then goes.
    await expect(status).toHaveText("", { timeout: 4000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(2500);

    await page.getByLabel("Task", { exact: true }).fill("<p>Build a landing page</p>");
    await page.getByRole("button", { name: "Send Task", exact: true }).click();
    await expect(status).toHaveText("Task sent successfully!");
    await page.getByLabel("Certificate", { exact: true }).fill("<p>Module 1 complete</p>");
    await page.getByRole("button", { name: "Send Certificate", exact: true }).click();
    await expect(status).toHaveText("Certificate sent successfully!");
    await expect(card).toContainText("1 notice, 1 task, 1 certificate");

    // The learner reads it, formatted and without the script.
    await learner.page.getByRole("button", { name: /Notification/ }).click();
    const popup = learner.page.getByRole("dialog");
    await expect(popup.locator("b", { hasText: "Friday" })).toBeVisible();
    await expect(popup.locator("script")).toHaveCount(0);
    await learner.page.keyboard.press("Escape");

    // A task link the learner submits appears on the open card without a reload.
    const link = `https://github.com/leela/${randomUUID().slice(0, 6)}`;
    const added = await learner.page.request.post("/api/learner/task-links", {
      data: { link },
      headers: { origin: baseURL! },
    });
    expect(added.status()).toBeLessThan(300);
    const anchor = card.getByRole("link", { name: link });
    await expect(anchor).toBeVisible({ timeout: 2000 });
    await expect(anchor).toHaveAttribute("target", "_blank");
    await expect(anchor).toHaveAttribute("rel", "noopener noreferrer");

    // Clear, after a confirmation: No keeps, Yes clears.
    await card.getByRole("button", { name: "Clear Notices" }).click();
    const confirm = page.getByRole("dialog");
    await expect(confirm).toContainText(`All notices of ${learner.account.username} will be deleted.`);
    await confirm.getByRole("button", { name: "No" }).click();
    await expect(card).toContainText("1 notice, 1 task");
    await card.getByRole("button", { name: "Clear Notices" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
    await expect(status).toHaveText("Notices cleared.");
    await expect(card).toContainText("0 notices, 1 task, 1 certificate");

    // The offer letter: written here, read-only for the learner.
    await card.getByLabel("Offer letter").fill("<h2>Offer</h2><p>Welcome aboard as an intern.</p>");
    await card.getByRole("button", { name: "Save Offer Letter" }).click();
    await expect(status).toHaveText("Offer letter saved.");
    await learner.page.getByRole("button", { name: "Offer letter" }).click();
    await expect(learner.page.getByRole("dialog")).toContainText("Welcome aboard as an intern.");
    await learner.page.keyboard.press("Escape");

    // Bulk send to everyone the search and filter match: the confirmation says how many.
    await page.getByLabel("Search by name").fill(`leela${tag}`);
    await page.getByLabel("Course").selectOption("");
    await expect(page.getByTestId("learner-card").filter({ hasText: other.account.username })).toHaveCount(1);
    await page.getByLabel("Course").selectOption("Java");
    await expect(page.getByTestId("learner-card").filter({ hasText: learner.account.username })).toHaveCount(0);
    await page.getByLabel("Notice", { exact: true }).fill("Java batch: exam on Monday");
    await page.getByRole("button", { name: /Send to all matching learners \(notice\)/ }).click();
    const bulk = page.getByRole("dialog");
    await expect(bulk).toContainText("1 learner will receive it.");
    await bulk.getByRole("button", { name: "Yes" }).click();
    await expect(status).toHaveText("Notice sent to 1 learner.");
    await other.page.goto("/");
    await expect(other.page.getByTestId("unread-badge")).toHaveText("1");
    await learner.page.reload();
    await expect(learner.page.getByTestId("unread-badge")).toHaveText("0");

    // The audit log lists these actions, newest first.
    await page.getByRole("button", { name: "Audit Log" }).click();
    // Other tests' admins share the log: this admin's rows, newest first.
    const rows = page.getByRole("dialog").locator("tbody tr").filter({ hasText: admin.account.username });
    await expect(rows.locator("td:nth-child(3)")).toHaveText([
      "Bulk sent (notice)",
      "Offer letter",
      "Cleared (notice)",
      "Sent (certificate)",
      "Sent (task)",
      "Sent (notice)",
    ]);

    // A new sign-up appears in the open list without a reload.
    await page.keyboard.press("Escape");
    await page.getByLabel("Course").selectOption("");
    await page.getByLabel("Search by name").fill(`Newcomer${tag}`);
    await expect(page.getByText(/^0 learners$/)).toBeVisible();
    const newcomer = await signedIn(browser, baseURL!, `Newcomer${tag}`, "SEO");
    await expect(page.getByTestId("learner-card").filter({ hasText: newcomer.account.username })).toBeVisible({
      timeout: 2000,
    });

    expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);

    await page.getByRole("button", { name: "User DashBoard" }).click();
    await expect(page.getByRole("heading", { name: `Welcome ${admin.account.username}!` })).toBeVisible();
    for (const c of [admin, learner, other, newcomer]) await c.context.close();
  });

  test("staff: sees the Admin button and sends, but the server refuses each clear with its message", async ({
    browser,
    baseURL,
  }) => {
    const staff = await signedIn(browser, baseURL!, "Mentor");
    const learner = await signedIn(browser, baseURL!, "Kiran", "AutoCAD");
    await setRole(baseURL!, staff.account.email, "mentor");
    const page = staff.page;
    await openAdminView(page);
    await expect(page.getByRole("button", { name: "Audit Log" })).toHaveCount(0);
    // Logout asks first: No stays in the admin view.
    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "No" }).click();
    await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
    const card = await selectLearner(page, learner.account);
    await expect(card.getByLabel("Offer letter")).toHaveCount(0);

    await page.getByLabel("Task", { exact: true }).fill("Submit your AutoCAD drawing");
    await page.getByRole("button", { name: "Send Task", exact: true }).click();
    await expect(page.locator("main p[role=status]").first()).toHaveText("Task sent successfully!");

    const errorLine = page.locator("main p[role=alert]").first();
    for (const [button, text] of [
      ["Clear Notices", "You do not have permission to clear notices."],
      ["Clear Tasks", "You do not have permission to clear tasks."],
      ["Clear Certificates", "You do not have permission to clear certificates."],
    ] as const) {
      await card.getByRole("button", { name: button }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
      await expect(errorLine).toHaveText(text);
    }
    await expect(card).toContainText("0 notices, 1 task, 0 certificates");

    // Admin-only endpoints answer 403 to staff.
    for (const [method, endpoint] of [
      ["GET", "audit"],
      ["PUT", "offer-letter"],
      ["POST", "role"],
    ] as const) {
      const response = await page.request.fetch(`/api/staff/${endpoint}`, {
        method,
        data: method === "GET" ? undefined : {},
        headers: { origin: baseURL! },
      });
      expect(response.status(), `${method} ${endpoint}`).toBe(403);
    }
    for (const c of [staff, learner]) await c.context.close();
  });

  test("learner: no Admin button, no admin view, 403 from every staff endpoint", async ({ browser, baseURL }) => {
    const learner = await signedIn(browser, baseURL!, "Plain");
    const page = learner.page;
    await page.goto("/?view=admin");
    await expect(page.getByRole("heading", { name: `Welcome ${learner.account.username}!` })).toBeVisible();
    await expect(page.getByRole("button", { name: "Admin", exact: true })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toHaveCount(0);

    const someone = randomUUID();
    const endpoints: [string, string, unknown?][] = [
      ["GET", "learners"],
      ["GET", `learners/${someone}`],
      ["GET", "courses"],
      ["GET", "count"],
      ["GET", "audit"],
      ["GET", `offer-letter/${someone}`],
      ["POST", "send", { learnerId: someone, kind: "notice", html: "x" }],
      ["POST", "bulk-send", { kind: "notice", html: "x", expectedCount: 1 }],
      ["POST", "clear", { learnerId: someone, kind: "notice" }],
      ["PUT", "offer-letter", { learnerId: someone, html: "x" }],
      ["POST", "role", { userId: someone, role: "admin" }],
    ];
    for (const [method, endpoint, data] of endpoints) {
      const response = await page.request.fetch(`/api/staff/${endpoint}`, {
        method,
        data,
        headers: { origin: baseURL! },
      });
      expect(response.status(), `${method} ${endpoint}`).toBe(403);
    }
    await learner.context.close();
  });
  test("admin: pages through a search, and makes a learner staff from the dashboard", async ({ browser, baseURL }) => {
    const admin = await signedIn(browser, baseURL!, "Pager");
    await setRole(baseURL!, admin.account.email, "admin");
    // 21 learners sharing one name prefix: one more than a page holds.
    const prefix = `Pg${randomUUID().slice(0, 6)}`;
    const learners: Account[] = [];
    for (let i = 0; i < 21; i++) {
      const id = `${String(i).padStart(2, "0")}`;
      const account = {
        username: `${prefix}x${id}`,
        email: `${prefix.toLowerCase()}-${id}@example.com`,
        course: "Java",
      };
      const response = await admin.page.request.post(`${baseURL}/api/auth/sign-up/email`, {
        data: { ...account, phone: "9876543210", gender: "male", password, confirmPassword: password },
        headers: { origin: baseURL! },
      });
      expect(response.status(), await response.text()).toBe(200);
      learners.push(account);
    }
    // Those sign-ups signed the request context in as the last learner: sign the admin back in.
    await admin.page.context().clearCookies();
    const back = await admin.page.request.post(`${baseURL}/api/auth/sign-in/email`, {
      data: { email: admin.account.email, password },
      headers: { origin: baseURL! },
    });
    expect(back.status()).toBe(200);

    const page = admin.page;
    await openAdminView(page);
    // The newest 20 learners are these anyway: wait for the search itself to have been answered.
    const searched = page.waitForResponse(
      (r) => r.url().includes("/api/staff/") && r.url().includes(`search=${prefix}`),
    );
    await page.getByLabel("Search by name").fill(prefix);
    await searched;
    const cards = page.getByTestId("learner-card");
    await expect(cards.filter({ hasNotText: prefix })).toHaveCount(0);
    await expect(cards).toHaveCount(20);
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(prefix);
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();

    // Role change from the card: the learner becomes staff and then sees the Admin button.
    const target = learners[0]!;
    const card = await selectLearner(page, target);
    await card.getByLabel("Role").fill("mentor");
    await card.getByRole("button", { name: "Change Role" }).click();
    await expect(page.locator("main p[role=status]").first()).not.toBeEmpty();

    const context = await browser.newContext();
    const learnerPage = await context.newPage();
    const signIn = await learnerPage.request.post(`${baseURL}/api/auth/sign-in/email`, {
      data: { email: target.email, password },
      headers: { origin: baseURL! },
    });
    expect(signIn.status()).toBe(200);
    await learnerPage.goto("/");
    await expect(learnerPage.getByRole("button", { name: "Admin", exact: true })).toBeVisible();
    await context.close();
    await admin.context.close();
  });
});
