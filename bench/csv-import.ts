// The learner CSV import of 10,000 rows through the import page's real action and loader, on
// SQLite and PostgreSQL (when TEST_DATABASE_URL or DATABASE_URL is set):
//   npm run bench:csv-import [-- --rows 10000]
// Times the upload with its dry run (parse, check, store), the dry run's page (every row planned
// against the database), the Import click (batches of 500 per transaction, audit), and then the
// invitations written to the outbox in the background. Target: the import under a minute.
// Each run starts on an empty database of its own. BENCH_SMOKE=1: 200 rows.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import "../scripts/app-module-hooks.ts";

const smoke = process.env.BENCH_SMOKE === "1";
const { values } = parseArgs({ options: { rows: { type: "string", default: smoke ? "200" : "10000" } } });
const rowCount = Number(values.rows);

const { loadConfig } = await import("~/config/config.server");
const { openDatabase } = await import("~/db/database.server");
const { migrateToLatest } = await import("~/db/migrate.server");
const { createLogger } = await import("~/logging/logger.server");
const { InProcessBus } = await import("~/realtime/bus.server");
const { buildServices, provideServices } = await import("~/platform/services.server");
const { importAction, loadImportPage } = await import("~/staff/import-page.server");
const { signUpCourses } = await import("~/content/site-content");

const appUrl = "http://127.0.0.1:3999";
const benchDatabase = "upskill_bench_csv_import";

type Handle = Awaited<ReturnType<typeof openDatabase>>;

async function open(kind: "sqlite" | "postgres", dataDir: string, url?: string): Promise<Handle> {
  if (kind === "sqlite") return openDatabase({ dataDir });
  // A database of its own, made afresh (see bench/admin-search.ts for why not a schema).
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase}`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  } finally {
    await client.end();
  }
  const benchUrl = new URL(url!);
  benchUrl.pathname = `/${benchDatabase}`;
  return openDatabase({ databaseUrl: benchUrl.toString(), dataDir });
}

/** A file of valid, distinct learners, as an admin's spreadsheet would give them. */
function csvFile(rows: number): string {
  const lines = ["Name,Email,Phone,Course,Gender"];
  for (let i = 0; i < rows; i++) {
    const course = signUpCourses[i % signUpCourses.length]!;
    lines.push(
      `Learner ${i},learner${i}@bench.example.in,9${String(i).padStart(9, "0")},${course},${i % 2 ? "male" : "female"}`,
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function measure(kind: "sqlite" | "postgres", url?: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-bench-csv-"));
  const handle = await open(kind, dataDir, url);
  await migrateToLatest(handle.db);
  // No SMTP: invitations are written to DATA_DIR/outbox, so the bench can count them.
  const config = loadConfig({ APP_URL: appUrl, DATA_DIR: dataDir, AUTH_RATE_LIMIT: "1000" });
  const services = await buildServices({
    config,
    logger: createLogger("silent"),
    database: handle,
    bus: new InProcessBus(),
  });
  provideServices(services);
  try {
    const email = "bench-admin@example.in";
    const signUp = await services.auth.handler(
      new Request(`${appUrl}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: appUrl, "x-upskill-client-ip": "192.0.2.1" },
        body: JSON.stringify({
          username: "Bench Admin",
          phone: "9876543210",
          course: "Python",
          gender: "female",
          email,
          password: "bench-admin-password-1",
          confirmPassword: "bench-admin-password-1",
        }),
      }),
    );
    if (signUp.status !== 200) throw new Error(`admin sign-up failed: ${signUp.status}`);
    await handle.db.updateTable("user").set({ role: "admin" }).where("email", "=", email).execute();
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");

    const form = new FormData();
    form.set("intent", "dry-run");
    form.set("mode", "add");
    const text = csvFile(rowCount);
    form.set("file", new File([text], "learners.csv", { type: "text/csv" }));
    const encoded = new Response(form);
    const body = new Uint8Array(await encoded.arrayBuffer());
    const headers = { origin: appUrl, cookie, "content-type": encoded.headers.get("content-type")! };

    const post = async (request: Request) => {
      try {
        return await importAction(request);
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    };
    let started = performance.now();
    const uploaded = await post(new Request(`${appUrl}/staff/import`, { method: "POST", headers, body }));
    const upload = performance.now() - started;
    if (!(uploaded instanceof Response) || uploaded.status !== 302) throw new Error("the dry run was refused");
    const run = new URL(uploaded.headers.get("location")!, appUrl).searchParams.get("run")!;

    started = performance.now();
    const page = await loadImportPage(new Request(`${appUrl}/staff/import?run=${run}`, { headers: { cookie } }));
    const dryRunPage = performance.now() - started;
    if (page.run?.totals.create !== rowCount)
      throw new Error(`the dry run planned ${page.run?.totals.create} new learners`);

    started = performance.now();
    const applied = await post(
      new Request(`${appUrl}/staff/import`, {
        method: "POST",
        headers: { origin: appUrl, cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "import", run }),
      }),
    );
    const importing = performance.now() - started;
    if (!(applied instanceof Response) || applied.status !== 302) throw new Error("the import was refused");
    const outbox = path.join(dataDir, "outbox");
    const deadline = Date.now() + 600_000;
    while ((fs.existsSync(outbox) ? fs.readdirSync(outbox).length : 0) < rowCount && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const invitations = performance.now() - started;
    return { bytes: Buffer.byteLength(text), upload, dryRunPage, importing, invitations };
  } finally {
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
results.SQLite = await measure("sqlite");
if (postgresUrl) results.PostgreSQL = await measure("postgres", postgresUrl);
else console.log("PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to measure it too.");

console.log(`\nLearner CSV import of ${rowCount.toLocaleString("en-IN")} rows (new learners, 'Add new only')`);
console.log(
  `${"".padEnd(12)}${"file".padStart(10)}${"dry run".padStart(10)}${"its page".padStart(10)}${"import".padStart(10)}${"+ invites".padStart(11)}`,
);
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(12)}${`${(r.bytes / 1024).toFixed(0)} KB`.padStart(10)}${seconds(r.upload).padStart(10)}${seconds(r.dryRunPage).padStart(10)}${seconds(r.importing).padStart(10)}${seconds(r.invitations).padStart(11)}`,
  );
}
if (smoke) console.log("\nSmoke size: these figures say only that the bench runs.");
else {
  for (const [name, r] of Object.entries(results)) {
    const total = r.upload + r.importing;
    console.log(
      `Target: ${name} upload and import under a minute: ${total < 60_000 ? "met" : "NOT met"} (${seconds(total)}).`,
    );
  }
}
process.exit(0);
