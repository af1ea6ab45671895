import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "~/db/database.server";
import { formatDocumentDate } from "~/documents/words";
import { setPublicConsent } from "~/placement/consent.server";
import { PostgresBus } from "~/realtime/bus.server";
import { staffTopic } from "~/realtime/events";
import { insertBatch, insertEnrolment, insertOffer } from "../support/placement-fixtures";
import { freePort, root, serverEntry } from "../support/server-process";
import { signUpByApi } from "./fixtures";

/**
 * The outcome pages in a browser against the built server. The server runs on PostgreSQL (its
 * own schema) so that this test process acts as a second instance: it writes placement records
 * and changes consent through the server functions, and the server hears of it over
 * LISTEN/NOTIFY, as the public page's cache must.
 */
const databaseUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

let schema: string;
let base: string;
let child: ChildProcess;
let dataDir: string;
let other: { database: DatabaseHandle; bus: PostgresBus };

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  schema = `e2e_outcomes_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-e2e-outcomes-"));
  child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      AUTH_RATE_LIMIT: "1000",
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
  const database = await openDatabase({ databaseUrl, dataDir, schema });
  const bus = new PostgresBus({ connectionString: databaseUrl });
  await bus.ready();
  other = { database, bus };
});

test.afterAll(async () => {
  child?.kill("SIGTERM");
  await other?.bus.close();
  await other?.database.close();
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** A batch that ended 200 days ago with placed learners (verified, accepted offers); returns their ids. */
async function placedBatch(names: string[]): Promise<string[]> {
  const db = other.database.db;
  const at = new Date().toISOString();
  const batchId = await insertBatch(db, {
    name: `Web Development – ${randomUUID().slice(0, 6)}`,
    course: "Web Development",
    startDate: daysAgo(380),
    endDate: daysAgo(200),
    payment: "upfront",
    termsId: null,
  });
  const ids: string[] = [];
  for (const name of names) {
    const learnerId = randomUUID();
    await db
      .insertInto("user")
      .values({
        id: learnerId,
        name,
        username: name,
        email: `${learnerId}@example.com`,
        emailVerified: false,
        createdAt: at,
        updatedAt: at,
        role: null,
      })
      .execute();
    await insertEnrolment(db, { batchId, learnerId, graduation: "graduated", seeking: true });
    await insertOffer(db, learnerId, {
      company: "Persistent Systems",
      source: "referral",
      stage: "joined",
      status: "verified",
      offerDate: daysAgo(180),
      joiningDate: daysAgo(170),
      ctcPaise: 450_000_00,
    });
    ids.push(learnerId);
  }
  // As the staff actions announce a change: every instance's page cache hears it.
  await other.bus.publish(staffTopic, { type: "placement" });
  return ids;
}

async function checkAxe(page: Page) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations, `axe at ${width} px`).toEqual([]);
  }
}

test("the landing page shows no placement figure before records back one", async ({ page }) => {
  await page.goto(`${base}/`);
  await expect(page.getByRole("link", { name: "See our placement results" })).toBeVisible();
  await expect(page.getByTestId("placement-figure")).toHaveCount(0);
  await expect(page.getByText("job-seeking graduates")).toHaveCount(0);
});

test("the public outcomes page names only learners who consented, and follows consent given and withdrawn", async ({
  page,
}) => {
  const tag = randomUUID().slice(0, 4);
  const [kavya, rohan] = await placedBatch([`Kavya Public${tag}`, `Rohan Private${tag}`]);
  await setPublicConsent({ db: other.database.db, bus: other.bus }, kavya!, true);

  const names = page.getByTestId("placed-names");
  await expect(async () => {
    await page.goto(`${base}/outcomes`);
    await expect(names).toContainText(`Kavya Public${tag}`, { timeout: 1000 });
  }).toPass();
  await expect(page.getByRole("heading", { level: 1, name: "Placement outcomes" })).toBeVisible();
  await expect(page.getByText(`Rohan Private${tag}`)).toHaveCount(0);
  // Aggregates with their numerator and denominator, and the definitions under the table.
  const row = page.getByRole("region", { name: "Outcomes by batch" }).getByTestId("outcome-row").first();
  await expect(row).toContainText("100%");
  await expect(row).toContainText("2 of 2");
  await expect(page.getByText("Placed within 180 days divided by graduates seeking a job")).toBeVisible();
  await expect(page.getByText("Fees collected vs due")).toHaveCount(0);
  await checkAxe(page);

  // Rohan consents, Kavya withdraws: the cached page follows (another instance made the change).
  await setPublicConsent({ db: other.database.db, bus: other.bus }, rohan!, true);
  await setPublicConsent({ db: other.database.db, bus: other.bus }, kavya!, false);
  await expect(async () => {
    await page.goto(`${base}/outcomes`);
    await expect(names).toContainText(`Rohan Private${tag}`, { timeout: 1000 });
    await expect(page.getByText(`Kavya Public${tag}`)).toHaveCount(0, { timeout: 1000 });
  }).toPass();
});

test("the landing page shows the placement figure of the published batches and links to the outcomes", async ({
  page,
}) => {
  // The batch above (2 of 2 placed) ended 200 days ago; the cached landing page was dropped when
  // the records changed on the other instance.
  const figure = `100% of job-seeking graduates placed within 180 days (2 of 2), in batches that ended by ${formatDocumentDate(daysAgo(200))}.`;
  await page.goto(`${base}/`);
  await expect(page.getByTestId("placement-figure")).toHaveText(figure);
  // Still the lean page: no React scripts for the figure.
  await expect(page.locator('script[src], link[rel="modulepreload"]')).toHaveCount(0);
  await page.getByRole("link", { name: "See our placement results" }).click();
  await expect(page).toHaveURL(`${base}/outcomes`);
  await expect(page.getByRole("heading", { level: 1, name: "Placement outcomes" })).toBeVisible();
  // The same figure heads the outcomes page.
  await expect(page.getByTestId("outcomes-figure")).toHaveText(figure);
});

test("staff see the report with fees and the receivables; a learner is refused", async ({ page, browser }) => {
  await placedBatch([`Staff View ${randomUUID().slice(0, 4)}`]);
  const account = await signUpByApi(page.request, base);
  await other.database.db.updateTable("user").set({ role: "mentor" }).where("email", "=", account.email).execute();

  await page.goto(`${base}/staff`);
  await page.getByRole("link", { name: "Placement outcomes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Placement outcomes" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Outcomes by course" })).toContainText("All courses");
  await expect(page.getByRole("columnheader", { name: "Fees collected / due" }).first()).toBeVisible();
  await expect(page.getByText("Fees collected vs due")).toBeVisible();
  await checkAxe(page);

  await page.getByRole("link", { name: "Fees receivable" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fees receivable" })).toBeVisible();
  await checkAxe(page);
  const csv = await page.request.get(`${base}/staff/fees.csv`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");

  const context = await browser.newContext();
  const learner = await context.newPage();
  await signUpByApi(learner.request, base);
  for (const address of ["/staff/outcomes", "/staff/fees", "/staff/fees.csv"]) {
    expect((await learner.request.get(`${base}${address}`)).status(), address).toBe(403);
  }
  await context.close();
});
