import fs from "node:fs";
import net from "node:net";
import { once } from "node:events";
import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { request as playwrightRequest, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { setRole } from "../support/e2e-roles";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { expect, learnerItems, newAccount, openLive, signUpByApi, test } from "./fixtures";

/** A tag that starts with a letter (digits alone would be a phone search), unique to this run. */
const newTag = () => `csv${randomUUID().slice(0, 6)}`;

/** The learners' rows of an import file for this tag: name, email, phone, course, gender. */
function importRows(tag: string) {
  return [
    [`${tag} Asha`, `${tag}-asha@example.com`, "9876543210", "Python", "Female"],
    [`${tag} Ravi`, `${tag}-ravi@example.com`, "9876543211", "web development", "male"],
    [`${tag} Bad`, `${tag}-bad`, "12345", "Cooking", "male"],
  ];
}

const csvOf = (rows: string[][]) => ["Name,Email,Phone,Course,Gender", ...rows.map((r) => r.join(","))].join("\r\n");

async function noSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
}

test.describe("learner CSV export and import", () => {
  test("staff export the list they see: the downloaded CSV's rows are the list's learners", async ({
    staff,
    baseURL,
  }) => {
    const tag = newTag();
    const api = await playwrightRequest.newContext();
    const made = [];
    for (const name of ["A", "B", "C"])
      made.push(await signUpByApi(api, baseURL!, newAccount(`${tag}${name}`, "Java")));
    await api.dispose();

    const { page } = staff;
    await openLive(page, `/staff?q=${tag}`);
    const cards = learnerItems(page);
    await expect(cards).toHaveCount(3);
    const listed = (await cards.allInnerTexts()).join("\n");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV of all matching", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^learners-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(bytes.subarray(3).toString("utf8")) as string[][];
    expect(rows[0]!.slice(0, 6)).toEqual(["id", "name", "email", "phone", "course", "gender"]);
    // Newest first, as the list shows them.
    expect(rows.slice(1).map((r) => r[1])).toEqual(made.map((a) => a.username).reverse());
    for (const row of rows.slice(1)) expect(listed).toContain(row[1]);
    expect(rows.slice(1).map((r) => r.slice(3, 6))).toEqual(Array(3).fill(["9876543210", "Java", "female"]));
  });

  test("admins import: dry run with every problem, Import, the learners in the list; 375 px; axe", async ({
    admin,
    staff,
  }) => {
    const tag = newTag();
    // Staff see Export but not Import, and the import page is not theirs.
    await openLive(staff.page, "/staff");
    await expect(staff.page.getByRole("link", { name: "Export CSV of all matching", exact: true })).toBeVisible();
    await expect(staff.page.getByRole("link", { name: "Import learners" })).toHaveCount(0);
    const refused = await staff.page.goto("/staff/import");
    expect(refused?.status()).toBe(403);

    const { page } = admin;
    await openLive(page, "/staff");
    await page.getByRole("link", { name: "Import learners" }).click();
    await expect(page.getByRole("heading", { name: "Import learners" })).toBeVisible();
    expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);

    // A file without the needed columns is refused and says why.
    await page.getByLabel("CSV file").setInputFiles({
      name: "wrong.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("Name,Email\r\nAsha,asha@example.com\r\n"),
    });
    await page.getByRole("button", { name: "Check the file" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "The file has no phone, course and gender columns. Its first row must name the columns: name, email, phone, course, gender.",
    );

    // Too large: refused with its limit (the server stops reading after 5 MB).
    await page.getByLabel("CSV file").setInputFiles({
      name: "big.csv",
      mimeType: "text/csv",
      buffer: Buffer.alloc(6 * 1024 * 1024, "a"),
    });
    await page.getByRole("button", { name: "Check the file" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "The file is larger than 5 MB. Split it into smaller files and upload each.",
    );

    await page.getByLabel("CSV file").setInputFiles({
      name: "learners.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csvOf(importRows(tag))),
    });
    await page.getByRole("button", { name: "Check the file" }).click();
    await expect(page.getByRole("heading", { name: "Dry run of learners.csv" })).toBeVisible();
    await expect(page.getByTestId("import-totals")).toContainText("New learners2");
    const problems = page.getByTestId("import-problems").getByRole("listitem").filter({ hasText: "Line 4" });
    await expect(problems.first()).toContainText("Invalid phone number.");
    await expect(problems.first()).toContainText("That course is not offered. Please choose one from the list.");
    await expect(problems.first()).toContainText("Invalid email format.");
    expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await noSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Nothing is in the list before Import.
    await openLive(staff.page, `/staff?q=${tag}`);
    await expect(staff.page.getByText("No learners whose name, email or phone contains")).toBeVisible();

    await page.getByRole("button", { name: "Import 2 learners" }).click();
    await expect(page.getByRole("heading", { name: "Imported learners.csv" })).toBeVisible();
    await expect(page.getByTestId("import-totals")).toContainText("Created2");
    await expect(page.getByTestId("import-totals")).toContainText("Failed1");
    await expect(page.getByText("2 new learners are being sent an email")).toBeVisible();
    expect((await new AxeBuilder({ page }).include("main").analyze()).violations).toEqual([]);

    // The staff member's open list shows them without a reload (live events).
    const cards = learnerItems(staff.page);
    await expect(cards).toHaveCount(2);
    await expect(cards.filter({ hasText: `${tag} Ravi` })).toContainText("Web Development");

    const [failed] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download the 1 failed row (CSV)" }).click(),
    ]);
    const rows = parse(
      fs
        .readFileSync((await failed.path())!)
        .subarray(3)
        .toString("utf8"),
    ) as string[][];
    expect(rows).toEqual([
      ["line", "name", "email", "phone", "course", "gender", "reason"],
      [
        "4",
        `${tag} Bad`,
        `${tag}-bad`,
        "12345",
        "Cooking",
        "male",
        "Invalid phone number. That course is not offered. Please choose one from the list. Invalid email format.",
      ],
    ]);
    await page.setViewportSize({ width: 375, height: 800 });
    await noSidewaysScroll(page);
  });
});

test.describe("an imported learner's invitation", () => {
  let smtp: TestSmtp;
  let server: ServerProcess;

  test.beforeAll(async () => {
    smtp = await startSmtp();
    // Its own server, so that its mail goes to this test's SMTP server.
    server = await startServerProcess({ SMTP_URL: smtp.url, AUTH_RATE_LIMIT: "100" });
  });

  test.afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  test("the emailed link sets the password, signs in, and works once", async ({ browser }) => {
    const base = server.url;
    const context = await browser.newContext({ baseURL: base });
    const adminPage = await context.newPage();
    const admin = await signUpByApi(adminPage.request, base, newAccount("Admin"));
    await setRole(base, admin.email, "admin", server.dataDir);

    const tag = newTag();
    const email = `${tag}-asha@example.com`;
    await openLive(adminPage, "/staff/import");
    await adminPage.getByLabel("CSV file").setInputFiles({
      name: "one.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csvOf([[`${tag} Asha`, email, "9876543210", "Python", "female"]])),
    });
    await adminPage.getByRole("button", { name: "Check the file" }).click();
    await adminPage.getByRole("button", { name: "Import 1 learner" }).click();
    await expect(adminPage.getByTestId("import-totals")).toContainText("Created1");
    await context.close();

    await expect.poll(() => smtp.mails.filter((m) => m.to.includes(email)).length, { timeout: 10_000 }).toBe(1);
    const mail = smtp.mails.find((m) => m.to.includes(email))!.parsed.text ?? "";
    expect(mail).toContain("choose your password");
    const link = mail.match(/https?:\/\/[^\s"<>]+\/reset-password\?token=[A-Za-z0-9%_-]+&invite=1/)?.[0];
    expect(link, mail).toBeTruthy();

    const page = await browser.newPage({ baseURL: base });
    // Before choosing a password, signing in fails as a wrong password does.
    await page.goto(`${base}/?auth=login`);
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Email", { exact: true }).fill(email);
    await dialog.getByLabel("Password", { exact: true }).fill("a-guess-1234");
    await dialog.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Invalid email or password");

    await page.goto(link!);
    await expect(page.getByRole("heading", { name: "Choose your password" })).toBeVisible();
    const password = "imported-password-1";
    await page.getByLabel("New Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm New Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expect(page.getByRole("heading", { name: `Welcome ${tag} Asha!` })).toBeVisible();
    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
    await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();

    // The password signs in; the link is used up.
    await page.goto(`${base}/?auth=login`);
    await dialog.getByLabel("Email", { exact: true }).fill(email);
    await dialog.getByLabel("Password", { exact: true }).fill(password);
    await dialog.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page.getByRole("heading", { name: `Welcome ${tag} Asha!` })).toBeVisible();
    await page.goto(link!);
    await expect(page.getByRole("alert")).toHaveText("This invitation link has expired or has already been used.");
    await page.close();
  });
});

test.describe("an import upload of 50 MB", () => {
  test("is cut off with 413 after about 5 MB, chunked or declared, without the server's memory growing", async ({
    browser,
  }) => {
    test.skip(!fs.existsSync("/proc/self/status"), "needs /proc to read the server's memory");
    const server = await startServerProcess();
    try {
      const context = await browser.newContext({ baseURL: server.url });
      const admin = await signUpByApi(context.request, server.url, newAccount("Admin"));
      await setRole(server.url, admin.email, "admin", server.dataDir);
      const cookie = (await context.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      await context.close();
      const port = Number(new URL(server.url).port);
      const peakMb = () =>
        Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8"))![1]) / 1024;
      const before = peakMb();
      const boundary = "csv-boundary";
      const formHead =
        `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ndry-run\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="mode"\r\n\r\nadd\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`;
      const megabyte = Buffer.alloc(1024 * 1024, "a");

      for (const chunked of [true, false]) {
        const socket = net.connect(port, "127.0.0.1");
        await once(socket, "connect");
        const received: Buffer[] = [];
        socket.on("data", (chunk) => received.push(chunk));
        socket.on("error", () => {}); // a reset after the answer is part of what is tested
        const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
        const frame = (data: Buffer) =>
          chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]) : data;
        socket.write(
          `POST /staff/import.data HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\nCookie: ${cookie}\r\n` +
            `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
            `${chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${50 * 1024 * 1024}`}\r\n\r\n`,
        );
        socket.write(frame(Buffer.from(formHead)));
        let sentMb = 0;
        // Writes until the answer comes or the server closes; at most 50 MB.
        while (sentMb < 50 && received.length === 0 && !socket.destroyed) {
          const drained = socket.write(frame(megabyte));
          sentMb++;
          if (!drained) {
            await Promise.race([once(socket, "drain").catch(() => {}), closed, new Promise((r) => setTimeout(r, 500))]);
          }
        }
        await Promise.race([closed, new Promise((r) => setTimeout(r, 5_000))]);
        const answer = Buffer.concat(received).toString("latin1");
        expect(answer, `chunked: ${chunked}`).toMatch(/^HTTP\/1\.1 413 /);
        expect(sentMb, `chunked: ${chunked}`).toBeLessThan(50);
        // The connection is closed once the answer is out, so the client stops sending.
        expect(socket.destroyed || socket.readableEnded, `chunked: ${chunked}`).toBe(true);
        socket.destroy();
      }
      const growth = peakMb() - before;
      expect(growth, `peak memory grew by ${growth.toFixed(1)} MB`).toBeLessThan(40);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
