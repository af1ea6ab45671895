import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import sharp from "sharp";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { sendMessage, setOfferLetter } from "~/messages/messages.server";
import { PostgresBus } from "~/realtime/bus.server";
import { signUpByApi } from "./fixtures";

/**
 * The learner dashboard in a real browser against the built server. The server runs on
 * PostgreSQL (its own schema) so that this test process can act as a second app instance: it
 * sends staff messages through the same server functions the staff endpoints use, and they
 * reach the browser through LISTEN/NOTIFY and the event stream, as a message from staff would.
 */
const databaseUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const root = path.resolve(import.meta.dirname, "..", "..");
const entry = path.join(root, process.env.BUILD_DIR ?? "build", "server", "index.js");

let schema: string;
let port: number;
let base: string;
let child: ChildProcess;
let dataDir: string;
let staff: { database: DatabaseHandle; bus: PostgresBus };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts (or restarts) the server on this file's port, database schema and data directory. */
async function startServer() {
  const schemaUrl = `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  child = spawn(process.execPath, [entry], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: schemaUrl,
      AUTH_RATE_LIMIT: "1000",
      RESUME_MAX_MB: "1",
      LOG_LEVEL: "warn",
    },
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 200) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}

// One server for the file: tests run one after another in one worker.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  schema = `e2e_learner_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-e2e-learner-"));
  await startServer();
  const database = await openDatabase({ databaseUrl, dataDir, schema });
  const bus = new PostgresBus({ connectionString: databaseUrl });
  await bus.ready();
  staff = { database, bus };
});

test.afterAll(async () => {
  child?.kill("SIGTERM");
  await staff?.bus.close();
  await staff?.database.close();
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Signs up a new learner through the API (the page's context keeps the cookie) and opens the dashboard. */
async function signUp(page: Page, options: { daysAgo?: number } = {}) {
  const account = await signUpByApi(page.request, base);
  const user = await staff.database.db
    .selectFrom("user")
    .select("id")
    .where("email", "=", account.email)
    .executeTakeFirstOrThrow();
  if (options.daysAgo) {
    await staff.database.db
      .updateTable("user")
      .set({ createdAt: new Date(Date.now() - options.daysAgo * 86_400_000) })
      .where("id", "=", user.id)
      .execute();
  }
  await page.goto(`${base}/dashboard`);
  await expect(page.getByRole("heading", { level: 1, name: `Welcome ${account.username}!` })).toBeVisible();
  // The event stream is open once the page has hydrated and connected.
  await expect(page.locator("main[data-live=connected]")).toBeVisible();
  return { ...account, id: user.id };
}

const send = (learnerId: string, kind: "notice" | "task" | "certificate", html: string) =>
  sendMessage({ db: staff.database.db, bus: staff.bus }, { learnerId, kind, html, sentBy: null });

test("greets the learner with Day N counted from sign-up", async ({ page }) => {
  const learner = await signUp(page, { daysAgo: 5 });
  await expect(page.getByText("Day 6", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Admin" })).toHaveCount(0);
  // Each content button says how many of its items are unread.
  for (const name of [
    "Tasks 0 unread",
    "Training Certificate 0 unread",
    "Offer letter 0 unread",
    "Notification 0 unread",
    "Logout",
  ]) {
    await expect(page.getByRole("button", { name, exact: true })).toBeVisible();
  }
  // Staff (any role value) see the Admin button.
  await staff.database.db.updateTable("user").set({ role: "mentor" }).where("id", "=", learner.id).execute();
  await page.reload();
  await expect(page.getByRole("button", { name: "Admin", exact: true })).toBeVisible();
});

test("uploads a profile photo and refuses wrong types and sizes, keeping the old one", async ({ page }) => {
  await signUp(page);
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#1e40af" } })
    .png()
    .toBuffer();
  const input = page.getByTestId("photo-input");
  await input.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  const photo = page.getByRole("img", { name: /^Profile picture of/ });
  await expect(photo).toBeVisible();
  const src = await photo.getAttribute("src");
  expect(src).toMatch(/^\/api\/learner\/photos\/[0-9a-f]{32}\.webp$/);
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);

  const alert = page.getByRole("alert").filter({ hasText: /photo|image/i });
  await input.setInputFiles({ name: "anim.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
  await expect(page.getByText("Please choose a JPEG, PNG or WebP image.")).toBeVisible();
  // A file that claims to be a PNG but is not: refused by the server from its bytes.
  await input.setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("<svg onload=alert(1)>") });
  await expect(page.getByText("Please choose a JPEG, PNG or WebP image.")).toBeVisible();
  await input.setInputFiles({ name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
  await expect(page.getByText("The photo is too large. The limit is 5 MB.")).toBeVisible();
  await expect(alert.first()).toBeVisible();
  await expect(photo).toHaveAttribute("src", src!);
});

test("uploads a resume with progress to 100%, refuses a wrong type and a too-large file, deletes after Yes", async ({
  page,
}) => {
  await signUp(page);
  const file = page.getByLabel(/Upload resume/);
  const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(900 * 1024, 0x41)]);
  const seen = new Set<string>();
  const progress = page.getByTestId("resume-progress");
  await file.setInputFiles({ name: "My Resume.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(async () => {
    const text = await progress.textContent().catch(() => null);
    if (text) seen.add(text);
    expect(seen.has("100%")).toBe(true);
  }).toPass({ intervals: [10], timeout: 10_000 });
  for (const text of seen) expect(text).toMatch(/^\d{1,3}%$/);
  const current = page.getByTestId("resume-current");
  await expect(current.getByText("My Resume.pdf")).toBeVisible();
  await expect(current.getByRole("link", { name: "Download resume" })).toHaveAttribute("href", "/api/learner/resume");
  await expect(current.getByText(/^Uploaded /)).toBeVisible();

  const replace = page.getByLabel(/Replace resume/);
  await replace.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(page.getByText("Please choose a .pdf, .doc or .docx file.")).toBeVisible();
  await replace.setInputFiles({
    name: "fake.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("<html>not a pdf</html>"),
  });
  await expect(page.getByText("This file is not a real .pdf, .doc or .docx document.")).toBeVisible();
  await replace.setInputFiles({ name: "big.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(1024 * 1024 + 1) });
  await expect(page.getByText("The resume is too large. The limit is 1 MB.")).toBeVisible();
  await expect(current.getByText("My Resume.pdf")).toBeVisible();

  await current.getByRole("button", { name: "Delete resume" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete resume" });
  await expect(dialog).toContainText("Delete your resume My Resume.pdf?");
  await expect(dialog.getByRole("button", { name: "Yes" })).toHaveClass(/bg-red-700/);
  await dialog.getByRole("button", { name: "No" }).click();
  await expect(dialog).toBeHidden();
  await expect(current.getByText("My Resume.pdf")).toBeVisible();
  await current.getByRole("button", { name: "Delete resume" }).click();
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("No resume uploaded yet.")).toBeVisible();
  expect((await page.request.get(`${base}/api/learner/resume`)).status()).toBe(404);
});

test("task links: empty, invalid, valid, and delete after No then Yes", async ({ page }) => {
  await signUp(page);
  const input = page.getByRole("textbox", { name: "Task link" });
  const submit = page.getByRole("button", { name: "Submit" });
  await submit.click();
  await expect(page.getByRole("alert").filter({ hasText: "Please enter a link" })).toBeVisible();
  await input.fill("   ");
  await submit.click();
  await expect(page.getByRole("alert").filter({ hasText: "Please enter a link" })).toBeVisible();
  await input.fill("github.com/me/task");
  await submit.click();
  await expect(page.getByText("Please enter a valid link starting with http:// or https://")).toBeVisible();
  await input.fill("  https://github.com/me/task-one  ");
  await submit.click();
  const list = page.getByRole("list", { name: "Submitted task links" });
  await expect(list.getByRole("link", { name: "https://github.com/me/task-one" })).toHaveAttribute(
    "rel",
    "noopener noreferrer",
  );
  await expect(input).toHaveValue("");
  await input.fill("https://example.com/task-two");
  await submit.click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("listitem").first()).toContainText("https://example.com/task-two");

  await list.getByRole("button", { name: "Delete link https://github.com/me/task-one" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete link" });
  await expect(dialog).toContainText("Delete the link https://github.com/me/task-one?");
  // A Yes that deletes is styled as a danger action.
  await expect(dialog.getByRole("button", { name: "Yes" })).toHaveClass(/bg-red-700/);
  await dialog.getByRole("button", { name: "No" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await list.getByRole("button", { name: "Delete link https://github.com/me/task-one" }).click();
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).not.toContainText("task-one");
});

test("popups show sent HTML formatted, newest first, with script, onerror and javascript: neutralised", async ({
  page,
}) => {
  const learner = await signUp(page);
  const evil = `<p><b>Bold</b> and <i>italic</i></p><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><a href="javascript:window.__pwned = 3">Click me</a><a href="https://example.com/ok">Safe link</a>`;
  await send(learner.id, "task", "<p>Older task</p>");
  await new Promise((r) => setTimeout(r, 20));
  await send(learner.id, "task", evil);
  await send(learner.id, "certificate", evil);
  await send(learner.id, "notice", evil);
  await setOfferLetter(
    { db: staff.database.db, bus: staff.bus },
    { learnerId: learner.id, html: evil, updatedBy: null },
  );

  for (const [button, title] of [
    [/^Tasks \d+ unread$/, "Tasks"],
    [/^Training Certificate \d+ unread$/, "Training Certificates"],
    [/^Offer letter \d+ unread$/, "Offer letter"],
    [/^Notification \d+ unread$/, "Notifications"],
  ] as const) {
    await page.getByRole("button", { name: button }).click();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog.locator("b", { hasText: "Bold" }).first()).toBeVisible();
    await expect(dialog.locator("script, img, [onerror]")).toHaveCount(0);
    const clickMe = dialog.getByText("Click me").first();
    expect(await clickMe.getAttribute("href")).toBeNull();
    await clickMe.click();
    await expect(dialog.getByRole("link", { name: "Safe link" }).first()).toHaveAttribute(
      "rel",
      "noopener noreferrer nofollow",
    );
    await expect(dialog.locator("time").first()).toBeVisible();
    if (title === "Tasks") {
      await expect(dialog.getByRole("listitem")).toHaveCount(2);
      await expect(dialog.getByRole("listitem").last()).toContainText("Older task");
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("empty popups say so, and close with the close button", async ({ page }) => {
  await signUp(page);
  for (const [button, title, empty] of [
    [/^Tasks \d+ unread$/, "Tasks", "No tasks yet."],
    [/^Training Certificate \d+ unread$/, "Training Certificates", "No certificates yet."],
    [/^Offer letter \d+ unread$/, "Offer letter", "No offer letter yet."],
    [/^Notification \d+ unread$/, "Notifications", "No notices yet."],
  ] as const) {
    await page.getByRole("button", { name: button }).click();
    const dialog = page.getByRole("dialog", { name: title });
    await expect(dialog.getByText(empty)).toBeVisible();
    await dialog.getByRole("button", { name: `Close ${title}` }).click();
    await expect(dialog).toBeHidden();
  }
});

test("a tap on a popup's button before the page's script has loaded still opens it", async ({ page }) => {
  const learner = await signUp(page);
  await send(learner.id, "notice", "<p>Sent before the tap</p>");
  // Hold the page's scripts back, as a slow phone would, until after the tap.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/**/*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${base}/dashboard`, { waitUntil: "commit" });
  await page.getByRole("button", { name: /^Notification \d+ unread$/ }).click();
  await expect(page).toHaveURL(/[?&]show=notices/);
  release();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByText("Sent before the tap")).toBeVisible();
});

test("the badge rises live when staff send a notice, an open popup updates, and opening Notification clears it", async ({
  page,
}) => {
  const learner = await signUp(page);
  const badge = page.getByTestId("unread-badge-notice");
  await expect(badge).toHaveText("0");

  const started = Date.now();
  await send(learner.id, "notice", "<p>First live notice</p>");
  await expect(badge).toHaveText("1", { timeout: 1_000 });
  const riseMs = Date.now() - started;
  await send(learner.id, "notice", "<p>Second live notice</p>");
  await expect(badge).toHaveText("2", { timeout: 1_000 });

  // An open popup takes new content within a second.
  await page.getByRole("button", { name: /^Tasks \d+ unread$/ }).click();
  const tasks = page.getByRole("dialog", { name: "Tasks" });
  await expect(tasks.getByText("No tasks yet.")).toBeVisible();
  await send(learner.id, "task", "<p>Live task</p>");
  await expect(tasks.getByText("Live task")).toBeVisible({ timeout: 1_000 });
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: /^Notification/ }).click();
  const notices = page.getByRole("dialog", { name: "Notifications" });
  await expect(notices.getByRole("listitem")).toHaveCount(2);
  await expect(notices.getByRole("listitem").first()).toContainText("Second live notice");
  await expect(badge).toHaveText("0");
  // A notice arriving while it is open is shown, and read at once.
  await send(learner.id, "notice", "<p>Third live notice</p>");
  await expect(notices.getByText("Third live notice")).toBeVisible({ timeout: 1_000 });
  await page.keyboard.press("Escape");
  await expect(badge).toHaveText("0");
  await page.reload();
  await expect(badge).toHaveText("0");
  console.log(`badge rose ${riseMs} ms after the send returned`);
});

test("the dashboard is axe-clean, with content and with a popup open", async ({ page }) => {
  const learner = await signUp(page);
  await send(learner.id, "notice", "<h2>Welcome</h2><ul><li>Read the handbook</li></ul>");
  await page.getByRole("textbox", { name: "Task link" }).fill("https://example.com/axe");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("link", { name: "https://example.com/axe" })).toBeVisible();
  await expect(page.getByTestId("unread-badge-notice")).toHaveText("1");
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
  await page.getByRole("button", { name: /^Notification/ }).click();
  await expect(page.getByRole("dialog", { name: "Notifications" }).getByText("Read the handbook")).toBeVisible();
  const withDialog = await new AxeBuilder({ page }).analyze();
  expect(withDialog.violations).toEqual([]);
});

test("a resume upload cut off mid-way continues from where it stopped after a reload", async ({ page }) => {
  await signUp(page);
  // A real file, so that choosing it again is the same file (name, size, modification time).
  const file = path.join(dataDir, "resume-resumed.pdf");
  fs.writeFileSync(file, Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(1000 * 1024, 0x42)]));
  let patches = 0;
  // The network fails after the first chunk, however often the client retries.
  await page.route("**/api/learner/resume/upload/*", (route) =>
    route.request().method() === "PATCH" && ++patches > 1 ? route.abort("connectionreset") : route.fallback(),
  );
  await page.getByLabel(/Upload resume/).setInputFiles(file);
  await expect(
    page.getByText("The upload was interrupted. Choose the same file again to continue where it stopped."),
  ).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByText("No resume uploaded yet.")).toBeVisible();

  await page.unroute("**/api/learner/resume/upload/*");
  await page.reload();
  await expect(page.locator("main[data-live=connected]")).toBeVisible();
  const offsets: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH") offsets.push(request.headers()["upload-offset"] ?? "");
  });
  await page.getByLabel(/Upload resume/).setInputFiles(file);
  await expect(page.getByTestId("resume-current").getByText("resume-resumed.pdf")).toBeVisible();
  expect(Number(offsets[0])).toBe(512 * 1024);
  const stored = await page.request.get(`${base}/api/learner/resume`);
  expect(Buffer.from(await stored.body()).equals(fs.readFileSync(file))).toBe(true);
});

test("after the stream drops, the page reconnects and catches up on what it missed", async ({ page }) => {
  const learner = await signUp(page);
  const badge = page.getByTestId("unread-badge-notice");
  await expect(badge).toHaveText("0");
  await expect(page.locator("main[data-live=connected]")).toBeVisible();
  const stopped = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await stopped;
  await expect(page.locator("main[data-live=connecting]")).toBeVisible();
  // Sent while the server is down: no instance is listening, so only the refresh can show it.
  await send(learner.id, "notice", "<p>Sent during the outage</p>");
  await startServer();
  await expect(page.locator("main[data-live=connected]")).toBeVisible({ timeout: 10_000 });
  await expect(badge).toHaveText("1");
});

// Last in the file: it stops the server.
test("a long list of notices opens with the newest page, and Show older brings the rest", async ({ page }) => {
  const learner = await signUp(page);
  for (let i = 1; i <= 55; i++) {
    await sendMessage(
      { db: staff.database.db, bus: staff.bus },
      {
        learnerId: learner.id,
        kind: "notice",
        html: `<p>Notice ${i} of 55</p>`,
        sentBy: null,
        now: new Date(Date.UTC(2026, 10, 1, 9, i)),
      },
    );
  }
  const badge = page.getByTestId("unread-badge-notice");
  await expect(badge).toHaveText("55");
  await page.getByRole("button", { name: /^Notification/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Notice 55 of 55")).toBeVisible();
  await expect(dialog.locator("li")).toHaveCount(50);
  await expect(dialog.getByText("Notice 5 of 55", { exact: true })).toHaveCount(0);
  // Only what was shown is read: the five older ones stay unread until they are shown.
  await expect(badge).toHaveText("5");
  await dialog.getByRole("button", { name: "Show older" }).click();
  await expect(dialog.locator("li")).toHaveCount(55);
  await expect(dialog.getByText("Notice 1 of 55", { exact: true })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Show older" })).toHaveCount(0);
  await expect(badge).toHaveText("0");
  // Everything was new when shown, and keeps its label while the popup is open.
  await expect(dialog.getByText("New", { exact: true })).toHaveCount(55);
});

test("SIGTERM ends the open event streams and the server exits promptly", async ({ page }) => {
  await signUp(page);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const response = await fetch(`${base}/api/events`, { headers: { cookie } });
  const reader = response.body!.getReader();
  await reader.read(); // the ready event
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started = Date.now();
  child.kill("SIGTERM");
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
  }
  const streamEndedMs = Date.now() - started;
  expect(await exited).toBe(0);
  const exitedMs = Date.now() - started;
  console.log(`stream ended ${streamEndedMs} ms and the server exited ${exitedMs} ms after SIGTERM`);
  expect(exitedMs).toBeLessThan(5_000);
});
