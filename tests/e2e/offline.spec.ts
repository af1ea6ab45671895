import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "@playwright/test";
import { noteDataDir } from "../support/data-dir-note";
import { onE2eDatabase } from "../support/e2e-roles";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { expect, newAccount, newPerson, openLive, signUpByApi, test, type Person } from "./fixtures";

// A bad connection as the browser has it (`context.setOffline`), and a server that fails or goes
// away for real: what was typed stays, Retry sends it once, and the page around it keeps working.

const lostMessage = "Could not reach Upskill. Your text is kept.";

/** One number from the e2e server's database (`select count(*) as n …`). */
async function count(baseURL: string, sql: string, ...params: string[]): Promise<number> {
  const { rows } = await onE2eDatabase(baseURL, [{ sql, params }]);
  return Number(rows[0]?.n);
}

/** The line under the header (a modal sheet open over the page hides it from the role tree). */
const connectionLine = (page: Page) => page.locator("[data-connection]");

async function goOffline(page: Page, context: BrowserContext) {
  await context.setOffline(true);
  await expect(connectionLine(page)).toHaveText(/^You are offline\./);
}

async function goOnline(page: Page, context: BrowserContext) {
  await context.setOffline(false);
  await expect(connectionLine(page)).toHaveCount(0);
}

/** The staff workspace's composer: the side panel, or on a phone the sheet Write opens. */
async function composer(page: Page, width: number): Promise<Locator> {
  if (width >= 1024) return page.getByRole("complementary", { name: "Send to learners" });
  await page.getByRole("button", { name: "Write" }).click();
  return page.getByRole("dialog", { name: "Send to learners" });
}

/**
 * Makes the database refuse one user's phone changes (a trigger that raises), as a full disk or
 * a broken constraint would: the server's save fails with a 500 of its own. Returns the undo.
 */
async function refusePhoneChanges(baseURL: string, userId: string): Promise<() => Promise<void>> {
  expect(userId).toMatch(/^[\w-]+$/);
  const name = `e2e_refuse_${userId.replace(/-/g, "_")}`;
  const postgres = Boolean(process.env.DATABASE_URL);
  await onE2eDatabase(
    baseURL,
    postgres
      ? [
          {
            sql: `create function "${name}"() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`,
          },
          {
            sql: `create trigger "${name}" before update of phone on "user" for each row when (new.id = '${userId}') execute function "${name}"()`,
          },
        ]
      : [
          {
            sql: `create trigger "${name}" before update of phone on "user" when new.id = '${userId}' begin select raise(abort, 'refused by the test'); end`,
          },
        ],
  );
  return async () => {
    await onE2eDatabase(
      baseURL,
      postgres
        ? [{ sql: `drop trigger "${name}" on "user"` }, { sql: `drop function "${name}"()` }]
        : [{ sql: `drop trigger "${name}"` }],
    );
  };
}

async function userIdOf(baseURL: string, person: Person): Promise<string> {
  const { rows } = await onE2eDatabase(baseURL, [
    { sql: `select id from "user" where email = ?`, params: [person.account.email] },
  ]);
  return String(rows[0]?.id);
}

for (const width of [1280, 375]) {
  test.describe(`a bad connection at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("staff: a notice sent offline stays with Retry, the page survives a live event and a search meanwhile, Retry sends it once; the draft survives a reload", async ({
      browser,
      baseURL,
      staff,
    }) => {
      const learner = await newPerson(browser, baseURL!, "Notified");
      const learnerId = await userIdOf(baseURL!, learner);
      const { page, context } = staff;
      await page.setViewportSize({ width, height: 800 });
      const name = learner.account.username;
      await openLive(page, `/staff?q=${name}&selected=${learnerId}`);
      const card = page.getByTestId("learner-card");
      await expect(card).toHaveAttribute("data-selected", "true");

      // A draft is kept in this browser across a reload.
      let compose = await composer(page, width);
      await compose.getByLabel("Notice", { exact: true }).fill("Draft: the lab is closed");
      await page.reload();
      await expect(page.locator("main[data-live=connected]")).toBeVisible();
      compose = await composer(page, width);
      const notice = compose.getByLabel("Notice", { exact: true });
      await expect(notice).toHaveValue("Draft: the lab is closed");

      await notice.fill("The lab is closed on Friday.");
      await goOffline(page, context);
      await compose.getByRole("button", { name: `Send Notice to ${name}`, exact: true }).click();
      await expect(compose.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
      await expect(notice).toHaveValue("The lab is closed on Friday.");

      // Meanwhile someone signs up (an event on the staff stream, still open) and, on a wide
      // screen, the search is typed again: the page stays as it was, with its header.
      await (await newPerson(browser, baseURL!, "Meanwhile")).context.close();
      if (width >= 1024) await page.getByLabel("Search by name").fill(`${name} `);
      // Time for the event and the search to have been read (they failed at once before).
      await page.waitForTimeout(1_500);
      // (On a phone the open sheet hides the page behind it from the role tree.)
      await expect(page.getByRole("navigation", { name: "Signed in", includeHidden: true })).toBeVisible();
      await expect(page.getByText("Something went wrong")).toHaveCount(0);
      await expect(notice).toHaveValue("The lab is closed on Friday.");
      await expect(card).toHaveAttribute("data-selected", "true");

      await goOnline(page, context);
      await compose.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByTestId("toast-status")).toHaveText("Notice sent successfully!");
      await expect(card).toContainText("1 notice, 0 tasks, 0 certificates");
      const notices = `select count(*) as n from message where "learnerId" = ? and kind = 'notice'`;
      expect(await count(baseURL!, notices, learnerId)).toBe(1);

      // Sent: the draft is gone after a reload.
      await page.reload();
      await expect(page.locator("main[data-live=connected]")).toBeVisible();
      compose = await composer(page, width);
      await expect(compose.getByLabel("Notice", { exact: true })).toHaveValue("");
      expect(await count(baseURL!, notices, learnerId)).toBe(1);
      await learner.context.close();
    });

    test("learner: a task link sent offline stays, Retry stores it once; a draft survives a reload", async ({
      browser,
      baseURL,
    }) => {
      const learner = await newPerson(browser, baseURL!, "Offline");
      const { page, context } = learner;
      await page.setViewportSize({ width, height: 800 });
      await openLive(page, "/dashboard");
      const input = page.getByRole("textbox", { name: "Task link" });
      const panel = page.getByRole("region", { name: "Task links" });

      // A draft is kept in this browser across a reload.
      await input.fill("https://github.com/offline/draft");
      await page.reload();
      await expect(input).toHaveValue("https://github.com/offline/draft");

      await input.fill("https://github.com/offline/one");
      await goOffline(page, context);
      await expect(page.getByRole("status").filter({ hasText: "You are offline." })).toBeVisible();
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(panel.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
      await expect(input).toHaveValue("https://github.com/offline/one");
      await expect(page.getByRole("navigation", { name: "Signed in" })).toBeVisible();

      await goOnline(page, context);
      await panel.getByRole("button", { name: "Retry" }).click();
      const list = page.getByRole("list", { name: "Submitted task links" });
      await expect(list.getByRole("link", { name: "https://github.com/offline/one" })).toHaveCount(1);
      await expect(input).toHaveValue("");
      await expect(panel.getByRole("alert").filter({ hasText: lostMessage })).toHaveCount(0);
      const links = `select count(*) as n from task_link where "learnerId" = ?`;
      expect(await count(baseURL!, links, await userIdOf(baseURL!, learner))).toBe(1);
      // Sent: the draft is gone after a reload, and the link is there once.
      await page.reload();
      await expect(input).toHaveValue("");
      await expect(list.getByRole("listitem")).toHaveCount(1);
      await context.close();
    });

    test("learner: details saved offline stay with Retry, which saves them once online", async ({
      learner,
      baseURL,
    }) => {
      const { page, context } = learner;
      await page.setViewportSize({ width, height: 800 });
      await openLive(page, "/dashboard");
      const details = page.getByRole("region", { name: "Your details" });
      const phone = details.getByLabel("Phone");
      await phone.fill("9123456781");
      await goOffline(page, context);
      await details.getByRole("button", { name: "Save details" }).click();
      await expect(details.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
      await expect(phone).toHaveValue("9123456781");
      await expect(page.getByRole("navigation", { name: "Signed in" })).toBeVisible();

      await goOnline(page, context);
      await details.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByTestId("toast-status")).toHaveText("Your phone and course have been saved.");
      await expect(details.getByRole("alert").filter({ hasText: lostMessage })).toHaveCount(0);
      const saved = `select count(*) as n from "user" where email = ? and phone = '9123456781'`;
      expect(await count(baseURL!, saved, learner.account.email)).toBe(1);
      await page.reload();
      await expect(details.getByLabel("Phone")).toHaveValue("9123456781");
    });

    test("signing in offline keeps what was typed and says so; Log in again once online signs in", async ({
      browser,
      request,
      baseURL,
    }) => {
      const account = await signUpByApi(request, baseURL!, newAccount("offline"));
      const context = await browser.newContext({ baseURL, viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto("/?auth=login");
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: "Log in" })).toBeVisible();
      await dialog.getByLabel("Email", { exact: true }).fill(account.email);
      await dialog.getByLabel("Password", { exact: true }).fill(account.password);
      await context.setOffline(true);
      await dialog.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(dialog.getByText(lostMessage)).toBeVisible();
      await expect(dialog.getByLabel("Email", { exact: true })).toHaveValue(account.email);
      await expect(dialog.getByLabel("Password", { exact: true })).toHaveValue(account.password);

      await context.setOffline(false);
      await dialog.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
      await context.close();
    });

    test("a server error in one panel leaves the header and the other panels working", async ({ learner, baseURL }) => {
      const { page } = learner;
      await page.setViewportSize({ width, height: 800 });
      await openLive(page, "/dashboard");
      // The database refuses this learner's phone change: the server's save fails (500).
      const allow = await refusePhoneChanges(baseURL!, await userIdOf(baseURL!, learner));
      const details = page.getByRole("region", { name: "Your details" });
      const phone = details.getByLabel("Phone");
      try {
        await phone.fill("9123456780");
        await details.getByRole("button", { name: "Save details" }).click();
        await expect(details.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
        await expect(phone).toHaveValue("9123456780");
        await expect(page.getByRole("navigation", { name: "Signed in" })).toBeVisible();

        // Another panel still works, against the same server.
        await page.getByRole("textbox", { name: "Task link" }).fill("https://github.com/failing/one");
        await page.getByRole("button", { name: "Submit" }).click();
        await expect(
          page.getByRole("list", { name: "Submitted task links" }).getByRole("link", { name: /failing\/one/ }),
        ).toBeVisible();
        await expect(phone).toHaveValue("9123456780");
      } finally {
        await allow();
      }

      // Retry saves the details once the database takes them.
      await details.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByTestId("toast-status")).toHaveText("Your phone and course have been saved.");
      await expect(details.getByRole("alert").filter({ hasText: lostMessage })).toHaveCount(0);
      await page.reload();
      await expect(details.getByLabel("Phone")).toHaveValue("9123456780");
    });
  });
}

// The public enquiry form and a server that restarts: a server of their own, so that the
// enquiries count against no other test's per-address limit and the restart stops no one else.
test.describe("its own server", () => {
  test.describe.configure({ mode: "serial" });
  let server: ServerProcess;
  let dataDir: string;
  let forgetDataDir: (() => void) | undefined;

  test.beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-offline-"));
    server = await startServerProcess({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "100" }, { readyWithinMs: 60_000 });
    forgetDataDir = noteDataDir(server);
  });

  test.afterAll(async () => {
    await server?.stop();
    forgetDataDir?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const width of [1280, 375]) {
    test(`at ${width} px: an enquiry sent offline stays, Retry stores it once online`, async ({ browser }) => {
      const visitor = await browser.newContext({ baseURL: server.url, viewport: { width, height: 800 } });
      const page = await visitor.newPage();
      await page.goto("/");
      const form = page.getByRole("region", { name: "Send us an enquiry" });
      const name = `Offline Visitor ${width}`;
      const formTime = page.waitForResponse((response) => response.url().endsWith("/api/enquiry-time"));
      await form.getByLabel("Your name").fill(name);
      expect((await formTime).status()).toBe(200);
      await form.getByLabel("Phone (10 digits)").fill("9876543210");
      await form.getByLabel("Course of interest").selectOption("Web Development");
      await form.getByLabel("Your message").fill("Is there a weekend batch?");
      // A person takes longer than the form's minimum fill time (3 s).
      await page.waitForTimeout(3_200);

      await visitor.setOffline(true);
      await form.getByRole("button", { name: "Send enquiry" }).click();
      await expect(form.getByRole("alert").filter({ hasText: lostMessage })).toBeVisible();
      await expect(form.getByLabel("Your name")).toHaveValue(name);
      await expect(form.getByLabel("Your message")).toHaveValue("Is there a weekend batch?");

      await visitor.setOffline(false);
      await form.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByRole("status")).toHaveText(new RegExp(`Thank you, ${name}\\. We have your enquiry`));
      const stored = await onE2eDatabase(
        server.url,
        [{ sql: `select count(*) as n from enquiry where name = ?`, params: [name] }],
        dataDir,
      );
      expect(Number(stored.rows[0]?.n)).toBe(1);
      await visitor.close();
    });
  }

  test("the live updates say they are reconnecting while the server restarts, and the page stays", async ({
    browser,
  }) => {
    const learner = await newPerson(browser, server.url, "Restart");
    const { page } = learner;
    await openLive(page, "/dashboard");
    const reconnecting = page.getByRole("status").filter({ hasText: "Reconnecting to live updates…" });
    await expect(reconnecting).toHaveCount(0);

    const port = Number(new URL(server.url).port);
    await server.stop();
    await expect(reconnecting).toBeVisible();
    await expect(page.locator("main[data-live=connecting]")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Signed in" })).toBeVisible();

    server = await startServerProcess({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "100" }, { port, readyWithinMs: 60_000 });
    // The stream tries again after 1, 2, 4, 8 … s.
    await expect(page.locator("main[data-live=connected]")).toBeVisible({ timeout: 30_000 });
    await expect(reconnecting).toHaveCount(0);
    await page.getByRole("textbox", { name: "Task link" }).fill("https://github.com/restart/one");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(
      page.getByRole("list", { name: "Submitted task links" }).getByRole("link", { name: /restart\/one/ }),
    ).toBeVisible();
    await learner.context.close();
  });
});
