import { createHash, randomBytes, randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { nginxBinary, nginxMissing, startNginx, type RunningNginx } from "../support/nginx";
import { startS3Server, type TestS3Server } from "../support/s3-server";
import { logRecords, root, startServerProcess, type ServerProcess } from "../support/server-process";
import { learnerItems, newAccount, openLive, submitIntent } from "./fixtures";

/**
 * The scale-out claim, end to end: two instances of the built server (as `npm start` runs it)
 * on one PostgreSQL schema and one bucket, with the same AUTH_SECRET, behind nginx running
 * deploy/nginx.conf itself (round robin, nothing sticky). The browser and the requests talk to
 * nginx; a test talks to one instance directly only where it must know which one answers, and
 * says so. nginx's access log names the instance behind each request.
 *
 * Ports: the ones after E2E_PORT (playwright.config.ts's server has E2E_PORT itself).
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const firstPort = Number(process.env.E2E_PORT ?? 3210) + 1;
const ports = { nginx: firstPort, a: firstPort + 1, b: firstPort + 2, s3: firstPort + 3 };
// Above the 7 sign-ups the file makes through nginx, from one address, within a minute.
const authRateLimit = 8;

let schema: string;
let s3: TestS3Server | undefined;
let instances: { a: ServerProcess; b: ServerProcess } | undefined;
let proxy: RunningNginx | undefined;
let site: string;
let staffCookie: string;
/** The schema of this run's database, for scripts run as an operator would. */
let databaseUrlWithSchema: string;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** deploy/nginx.conf with this run's listen address, instances and log folder. */
function deployConfig(prefix: string): string {
  let text = fs.readFileSync(path.join(root, "deploy", "nginx.conf"), "utf8");
  const swap = (from: string, to: string) => {
    if (text.split(from).length !== 2) throw new Error(`deploy/nginx.conf should have "${from}" exactly once`);
    text = text.replace(from, to);
  };
  swap("listen 80;", `listen 127.0.0.1:${ports.nginx};`);
  swap("server 127.0.0.1:3001;", `server 127.0.0.1:${ports.a};`);
  swap("server 127.0.0.1:3002;", `server 127.0.0.1:${ports.b};`);
  swap("/var/log/nginx/", `${prefix}/`);
  return text;
}

interface Hit {
  method: string;
  path: string;
  status: number;
  /** "A" or "B": the instance nginx passed the request to. */
  instance: string;
}

/** nginx's access log so far, with the instance behind each request. */
function accessLog(): Hit[] {
  const names: Record<string, string> = { [`127.0.0.1:${ports.a}`]: "A", [`127.0.0.1:${ports.b}`]: "B" };
  return fs
    .readFileSync(path.join(proxy!.prefix, "upskill.access.log"), "utf8")
    .split("\n")
    .flatMap((line) => {
      const match = /"(\w+) (\S+) HTTP\/[\d.]+" (\d{3}) .* upstream=(\S+)$/.exec(line);
      return match
        ? [{ method: match[1]!, path: match[2]!, status: Number(match[3]), instance: names[match[4]!] ?? match[4]! }]
        : [];
    });
}

/**
 * The access log's lines after its first `from` that `match`, once there are `count` of them:
 * nginx writes a request's line just after answering it.
 */
async function logged(from: number, match: (hit: Hit) => boolean, count: number): Promise<Hit[]> {
  let hits: Hit[] = [];
  await expect.poll(() => (hits = accessLog().slice(from).filter(match)).length).toBeGreaterThanOrEqual(count);
  return hits;
}

/**
 * When the instance's latest POST to an address under `pathPrefix` reached it: its log line's
 * time less the time it took (both from the server's clock, the machine's).
 */
function arrivalOfLast(instance: string, pathPrefix: string): number {
  const record = logRecords(instances![instance === "A" ? "a" : "b"].lines)
    .filter((line) => line.method === "POST" && String(line.path).startsWith(pathPrefix))
    .at(-1)!;
  return Math.round(Number(record.time) - Number(record.ms));
}

/** The cookie header a response set. */
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

/** Signs up through nginx, as the sign-up form does; returns the account and its session cookie. */
async function signUp(name: string) {
  const account = newAccount(name);
  const response = await fetch(`${site}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: site },
    body: JSON.stringify(account),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { user } = (await response.json()) as { user: { id: string } };
  return { ...account, id: user.id, cookie: cookieOf(response) };
}

/** A browser context on the site (nginx) holding this session cookie. */
async function pageWith(browser: Browser, cookie: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: site });
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const eq = pair.indexOf("=");
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: site };
    }),
  );
  return context.newPage();
}

/** Open event streams on each instance, from its own /metrics (read from this machine, not through nginx). */
async function openStreams(): Promise<{ A: number; B: number }> {
  const read = async (instance: ServerProcess) => {
    const text = await (await fetch(`${instance.url}/metrics`)).text();
    return Number(/^event_streams_open (\d+)$/m.exec(text)?.[1]);
  };
  return { A: await read(instances!.a), B: await read(instances!.b) };
}

/** An init script: notes in the page when each event reaches its stream (for the timings printed). */
function recordLiveEvents() {
  const events: number[] = [];
  (window as unknown as { liveEvents: number[] }).liveEvents = events;
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      this.addEventListener("message", () => events.push(Date.now()));
    }
  };
}

test.describe.configure({ mode: "serial" });

test.describe("two instances behind nginx", () => {
  test.skip(!databaseUrl, "TEST_DATABASE_URL is not set: the two-instance test needs PostgreSQL (skipped)");
  test.skip(!fs.existsSync(nginxBinary), nginxMissing);

  test.beforeAll(async () => {
    schema = `e2e_two_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    s3 = await startS3Server(ports.s3);
    const { url: storageUrl } = await s3.newBucketUrl({ prefix: "upskill" });
    site = `http://127.0.0.1:${ports.nginx}`;
    databaseUrlWithSchema = `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const shared = {
      NODE_ENV: "production",
      DATABASE_URL: databaseUrlWithSchema,
      STORAGE_URL: storageUrl,
      AUTH_SECRET: randomBytes(32).toString("base64"),
      TRUST_PROXY: "x-forwarded-for",
      APP_URL: site,
      AUTH_RATE_LIMIT: String(authRateLimit),
    };
    // Both at once on the empty schema, as two machines deployed together would: the
    // migrations must be safe to race.
    const started = Date.now();
    const [a, b] = await Promise.allSettled([
      startServerProcess(shared, { port: ports.a }),
      startServerProcess(shared, { port: ports.b }),
    ]);
    if (a.status === "fulfilled" && b.status === "fulfilled") instances = { a: a.value, b: b.value };
    else {
      for (const result of [a, b]) if (result.status === "fulfilled") await result.value.stop();
      throw [a, b].flatMap((result) => (result.status === "rejected" ? [result.reason] : []))[0];
    }
    console.log(`two instances ready on a fresh PostgreSQL schema in ${Date.now() - started} ms`);
    proxy = await startNginx(ports.nginx, deployConfig);

    // One staff member for the whole file, made staff as an operator would (npm run role).
    const staff = await signUp("Mentor");
    await promisify(execFile)(process.execPath, ["scripts/role.ts", staff.email, "mentor"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: shared.DATABASE_URL },
    });
    staffCookie = staff.cookie;
  });

  test.afterAll(async () => {
    await proxy?.stop();
    const exitCodes = await Promise.all([instances?.a.stop(), instances?.b.stop()]);
    await s3?.close();
    if (schema) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    // SIGTERM, as systemd stops a unit: each drains and exits 0.
    if (instances) expect(exitCodes).toEqual([0, 0]);
  });

  test("a resume uploaded on the dashboard (tus, its chunks on both instances) is downloaded by staff", async ({
    browser,
  }) => {
    const learner = await signUp("Resume");
    const page = await pageWith(browser, learner.cookie);
    await openLive(page, "/dashboard");
    const resume = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(1_300_000)]);
    const before = accessLog().length;
    await page
      .getByLabel(/Upload resume/)
      .setInputFiles({ name: "Two Instances.pdf", mimeType: "application/pdf", buffer: resume });
    await expect(page.getByTestId("resume-current").getByText("Two Instances.pdf")).toBeVisible({ timeout: 15_000 });
    const upload = await logged(before, (hit) => hit.path.startsWith("/api/learner/resume/upload"), 4);
    console.log(`resume upload through nginx: ${upload.map((hit) => `${hit.method}→${hit.instance}`).join(", ")}`);
    expect(upload.map((hit) => hit.method)).toEqual(["POST", "PATCH", "PATCH", "PATCH"]);
    expect(new Set(upload.map((hit) => hit.instance))).toEqual(new Set(["A", "B"]));
    await page.context().close();

    const staff = await pageWith(browser, staffCookie);
    await openLive(staff, `/staff?q=${learner.username}`);
    const card = learnerItems(staff).filter({ hasText: learner.username });
    await card.getByRole("button", { name: new RegExp(learner.username) }).click();
    const [download] = await Promise.all([
      staff.waitForEvent("download"),
      card.getByRole("link", { name: "Download resume (Two Instances.pdf)" }).click(),
    ]);
    expect(sha256(fs.readFileSync((await download.path())!))).toBe(sha256(resume));
    await staff.context().close();
  });

  test("a tus upload begun on one instance finishes on the other", async () => {
    const learner = await signUp("Tus");
    // Straight to each instance, so that this test, not round robin, decides which one takes each
    // request; with what nginx would send: the session cookie, the site's Origin, the client's address.
    const headers = { cookie: learner.cookie, origin: site, "x-forwarded-for": "127.0.0.1", "tus-resumable": "1.0.0" };
    const { a, b } = instances!;
    const resume = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(900_000)]);
    const metadata = `filename ${Buffer.from("Across.pdf").toString("base64")},filetype ${Buffer.from("application/pdf").toString("base64")}`;
    const created = await fetch(`${a.url}/api/learner/resume/upload`, {
      method: "POST",
      headers: { ...headers, "upload-length": String(resume.length), "upload-metadata": metadata },
    });
    expect(created.status, await created.text()).toBe(201);
    const location = created.headers.get("location")!;
    expect(location).toMatch(/^\/api\/learner\/resume\/upload\/[\w-]+$/);
    const patch = (instance: ServerProcess, offset: number, bytes: Buffer) =>
      fetch(`${instance.url}${location}`, {
        method: "PATCH",
        headers: { ...headers, "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
        body: new Uint8Array(bytes),
      });
    const half = 512 * 1024;
    const first = await patch(a, 0, resume.subarray(0, half));
    expect([first.status, first.headers.get("upload-offset")]).toEqual([204, String(half)]);
    // B knows how far A got: the upload lives in the bucket, not on A.
    const head = await fetch(`${b.url}${location}`, { method: "HEAD", headers });
    expect([head.status, head.headers.get("upload-offset")]).toEqual([200, String(half)]);
    const rest = await patch(b, half, resume.subarray(half));
    expect([rest.status, rest.headers.get("upload-offset")]).toEqual([204, String(resume.length)]);
    // Either instance serves it (two requests through nginx: one each).
    for (let i = 0; i < 2; i++) {
      const stored = await fetch(`${site}/api/learner/resume`, { headers: { cookie: learner.cookie } });
      expect(stored.status).toBe(200);
      expect(sha256(Buffer.from(await stored.arrayBuffer()))).toBe(sha256(resume));
    }
  });

  test("a notice sent through one instance reaches the learner's tab on the other within a second", async ({
    browser,
  }) => {
    const learner = await signUp("Notice");
    const staff = await pageWith(browser, staffCookie);
    // This is the file's first send. A new process's first send took about twice as long as later
    // ones (its code is compiled as it runs), so the instances send to someone else first (round
    // robin gives one of the two sends to each): what is timed below is the path a running server
    // takes all day.
    const someoneElse = await signUp("Warm");
    for (let sent = 0; sent < 2; sent++) {
      const fields = { intent: "send", learnerId: someoneElse.id, kind: "notice", html: "<p>Warm</p>" };
      expect((await submitIntent(staff, site, "/staff", fields)).status).toBe(200);
    }
    await openLive(staff, `/staff?q=${learner.username}`);
    // The learner's tabs, until one has its event stream on each instance: round robin decides
    // where each goes, and the instances' gauges say where it went. A tab's page takes the same
    // number of requests each time, so one extra request moves the next tab's stream along.
    const learnerContext = (await pageWith(browser, learner.cookie)).context();
    const tabs: Partial<Record<"A" | "B", Page>> = {};
    let streams = await openStreams();
    for (let opened = 0; !tabs.A || !tabs.B; opened++) {
      expect(opened, "tabs opened to get a stream on each instance").toBeLessThan(6);
      const tab =
        learnerContext.pages().find((page) => page.url() === "about:blank") ?? (await learnerContext.newPage());
      await openLive(tab, "/dashboard");
      const before = streams;
      await expect
        .poll(async () => ((streams = await openStreams()), streams.A + streams.B))
        .toBe(before.A + before.B + 1);
      const on = streams.A > before.A ? "A" : "B";
      if (tabs[on]) await fetch(`${site}/healthz`);
      else tabs[on] = tab;
    }
    // When each tab's badge shows the notice, by the page's own clock (same machine).
    for (const tab of [tabs.A, tabs.B]) {
      await expect(tab.getByTestId("unread-badge-notice")).toHaveText("0");
      await tab.evaluate(() => {
        (window as unknown as { shownAt: Promise<number> }).shownAt = new Promise<number>((resolve) => {
          const check = () => {
            if (document.querySelector("[data-testid=unread-badge-notice]")?.textContent === "1") resolve(Date.now());
          };
          new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
        });
      });
    }
    const shownAt = (tab: Page) => tab.evaluate(() => (window as unknown as { shownAt: Promise<number> }).shownAt);

    const card = learnerItems(staff).filter({ hasText: learner.username });
    await card.getByRole("button", { name: new RegExp(learner.username) }).click();
    await expect(card).toHaveAttribute("data-selected", "true");
    await staff.getByLabel("Notice", { exact: true }).fill("Across instances");
    const before = accessLog().length;
    const sentAt = Date.now();
    await staff.getByRole("button", { name: `Send Notice to ${learner.username}`, exact: true }).click();
    await expect(staff.getByTestId("toast-status")).toHaveText("Notice sent successfully!");
    const [send] = await logged(before, (hit) => hit.method === "POST" && hit.path.startsWith("/staff"), 1);
    expect(send!.status).toBe(200);
    const sender = send!.instance as "A" | "B";
    const other = sender === "A" ? "B" : "A";
    // Timed from when the send reached its instance, as the catalogue's change is below; the
    // click's own delay in a loaded browser is printed beside it.
    const receivedAt = arrivalOfLast(sender, "/staff");
    const shown = { [sender]: await shownAt(tabs[sender]!), [other]: await shownAt(tabs[other]!) };
    console.log(
      `notice sent through nginx on ${sender}: the learner's tab streaming from ${other} showed it ` +
        `${shown[other]! - receivedAt} ms after the send reached ${sender} (the tab on ${sender}: ` +
        `${shown[sender]! - receivedAt} ms; ${receivedAt - sentAt} ms from the click to its arrival)`,
    );
    expect(shown[other]! - receivedAt).toBeLessThan(1000);
    await learnerContext.close();
    await staff.context().close();
  });

  test("a submission reaches the trainer's queue, and its review the learner's open tab, on the other instance within a second", async ({
    browser,
  }) => {
    const learner = await signUp("Handin");
    const staff = await pageWith(browser, staffCookie);
    // The batch, its learner and an assignment, set up through nginx as the batches page's forms do.
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const batchName = `Live ${randomUUID().slice(0, 8)}`;
    const setUp = async (fields: Record<string, string>) => {
      const answer = await submitIntent(staff, site, "/staff/batches", fields);
      expect(answer.status, JSON.stringify(answer.data)).toBe(200);
      return answer.data as { assignmentId?: string };
    };
    await setUp({
      intent: "create-batch",
      name: batchName,
      courseSlug: "python",
      schedule: "Mon–Fri 6–8 pm",
      startDate: day(-10),
      endDate: day(90),
      payment: "upfront",
    });
    const database = new pg.Client({ connectionString: databaseUrlWithSchema });
    await database.connect();
    const batchId = (await database.query<{ id: string }>(`select id from batch where name = $1`, [batchName])).rows[0]!
      .id;
    await database.end();
    await setUp({ intent: "enrol-learners", batchId, learnerIds: learner.id });
    const { assignmentId } = await setUp({
      intent: "create-assignment",
      batchId,
      title: "Across instances",
      instructions: "Hand in the repository link.",
      dueDate: day(3),
      dueTime: "18:00",
      handIn: "link",
      points: "",
    });
    expect(assignmentId).toBeTruthy();

    /** Opens the page in this tab and says which instance holds its event stream. */
    const streamingFrom = async (tab: Page, address: string): Promise<"A" | "B"> => {
      const before = await openStreams();
      await openLive(tab, address);
      let after = before;
      await expect.poll(async () => ((after = await openStreams()), after.A + after.B)).toBe(before.A + before.B + 1);
      return after.A > before.A ? "A" : "B";
    };
    /** When the tab first shows `text` inside `selector`, by the page's own clock (same machine). */
    const watchFor = (tab: Page, selector: string, text: string) =>
      tab.evaluate(
        ([selector, text]) => {
          (window as unknown as { shownAt: Promise<number> }).shownAt = new Promise<number>((resolve) => {
            const check = () => {
              if (document.querySelector(selector!)?.textContent?.includes(text!)) resolve(Date.now());
            };
            new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
          });
        },
        [selector, text],
      );
    const shownAt = (tab: Page) => tab.evaluate(() => (window as unknown as { shownAt: Promise<number> }).shownAt);
    /** A change sent straight to one instance, with what nginx would send, as the page's form posts it. */
    const straightTo = async (instance: "A" | "B", cookie: string, page: string, fields: Record<string, string>) => {
      const before = logRecords(instances![instance === "A" ? "a" : "b"].lines).filter(
        (line) => line.method === "POST" && String(line.path).startsWith(page),
      ).length;
      const response = await fetch(`${instances![instance === "A" ? "a" : "b"].url}${page}.data`, {
        method: "POST",
        headers: {
          cookie,
          origin: site,
          "x-forwarded-for": "127.0.0.1",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fields),
      });
      expect(response.status, await response.text()).toBe(200);
      // The instance logs the request just after answering it.
      const posts = () =>
        logRecords(instances![instance === "A" ? "a" : "b"].lines).filter(
          (line) => line.method === "POST" && String(line.path).startsWith(page),
        ).length;
      await expect.poll(posts).toBeGreaterThan(before);
      return arrivalOfLast(instance, page);
    };
    const otherThan = (instance: "A" | "B") => (instance === "A" ? "B" : "A");
    /**
     * Where the time went after `from` (when the change reached its instance), for the log: when
     * events reached the tab's stream, when its data requests went out and came back (by the
     * page's clock), and which instance answered each in how long (by their logs).
     */
    const timeline = async (tab: Page, from: number, path: string, change: { on: "A" | "B"; page: string }) => {
      const changeMs = logRecords(instances![change.on === "A" ? "a" : "b"].lines)
        .filter((line) => line.method === "POST" && String(line.path).startsWith(change.page))
        .at(-1)!.ms;
      const seen = await tab.evaluate(() => ({
        events: (window as unknown as { liveEvents?: number[] }).liveEvents ?? [],
        requests: performance
          .getEntriesByType("resource")
          .filter((entry) => entry.name.includes(".data"))
          .map((entry) => [
            performance.timeOrigin + entry.startTime,
            performance.timeOrigin + (entry as PerformanceResourceTiming).responseEnd,
          ]),
      }));
      const after = (at: number) => Math.round(at - from);
      const served = (["A", "B"] as const).flatMap((name) =>
        logRecords(instances![name === "A" ? "a" : "b"].lines)
          .filter(
            (line) => line.method === "GET" && String(line.path).startsWith(`${path}.data`) && Number(line.time) > from,
          )
          .map((line) => `${name} at ${after(Number(line.time) - Number(line.ms))} in ${line.ms} ms`),
      );
      return (
        `the change answered in ${changeMs} ms (it sends its events before answering); ` +
        `events at ${seen.events
          .filter((at) => at > from)
          .map(after)
          .join(", ")} ms; ` +
        `data asked ${seen.requests
          .filter(([start]) => start! > from)
          .map(([start, end]) => `${after(start!)}–${after(end!)}`)
          .join(", ")} ms; answered by ${served.join(", ")}`
      );
    };

    // The trainer's queue, filtered to this batch, streaming from one instance; the learner hands
    // in on the other.
    await staff.addInitScript(recordLiveEvents);
    const queueOn = await streamingFrom(staff, `/staff/reviews?batch=${encodeURIComponent(batchId)}`);
    await expect(staff.getByRole("heading", { name: "Waiting for review (0)" })).toBeVisible();
    await watchFor(staff, "main", "Waiting for review (1)");
    const submittedOn = otherThan(queueOn);
    const submittedAt = await straightTo(submittedOn, learner.cookie, "/dashboard", {
      intent: "submit-assignment",
      assignmentId: assignmentId!,
      link: "https://github.com/handin/across",
    });
    const queued = (await shownAt(staff)) - submittedAt;
    const queuedTimeline = await timeline(staff, submittedAt, "/staff/reviews", {
      on: submittedOn,
      page: "/dashboard",
    });
    await expect(staff.getByTestId("current-review")).toContainText(learner.username);

    // The learner's open tab, streaming from one instance; the trainer reviews on the other.
    const tab = await pageWith(browser, learner.cookie);
    await tab.addInitScript(recordLiveEvents);
    const learnerOn = await streamingFrom(tab, "/dashboard");
    await expect(tab.getByTestId("due-next")).toContainText("Submitted");
    await watchFor(tab, "[data-testid=due-next]", "Changes requested");
    const reviewedOn = otherThan(learnerOn);
    const reviewedAt = await straightTo(reviewedOn, staffCookie, "/staff/reviews", {
      intent: "review-submission",
      assignmentId: assignmentId!,
      learnerId: learner.id,
      decision: "changes",
      comment: "Add a test for the empty list.",
    });
    const reviewed = (await shownAt(tab)) - reviewedAt;
    const reviewedTimeline = await timeline(tab, reviewedAt, "/dashboard", { on: reviewedOn, page: "/staff/reviews" });
    // The feedback is new for the learner until the Tasks popup shows it.
    await expect(tab.getByTestId("from-trainer")).toContainText("Across instances: Add a test for the empty list.");
    await expect(tab.getByTestId("unread-badge-task")).toHaveText("2");

    console.log(
      `submission on ${submittedOn}: in the trainer's queue streaming from ${queueOn} ${queued} ms after it ` +
        `reached ${submittedOn}; review on ${reviewedOn}: on the learner's tab streaming from ${learnerOn} ` +
        `${reviewed} ms after it reached ${reviewedOn}\n  the queue's tab: ${queuedTimeline}\n  the learner's tab: ${reviewedTimeline}`,
    );
    expect(queued).toBeLessThan(1000);
    expect(reviewed).toBeLessThan(1000);
    await tab.context().close();
    await staff.context().close();
  });

  test("an admin's catalogue change through one instance shows on both instances' landing page within a second", async ({
    browser,
  }) => {
    const admin = await signUp("Catalogue");
    await promisify(execFile)(process.execPath, ["scripts/role.ts", admin.email, "admin"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrlWithSchema },
    });
    // Each instance's anonymous page, read from it directly: both are cached before the change.
    const landing = async (instance: ServerProcess) => (await fetch(`${instance.url}/`)).text();
    const shows = (html: string) => ({ javaAt17500: html.includes("₹17,500"), linux: html.includes(">Linux</h3>") });
    for (const instance of [instances!.a, instances!.b]) {
      expect(shows(await landing(instance))).toEqual({ javaAt17500: false, linux: true });
    }

    const page = await pageWith(browser, admin.cookie);
    await openLive(page, "/staff/courses");
    const edit = async (title: string, change: () => Promise<void>) => {
      const item = page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: new RegExp(`^\\d+\\. ${title} `) }) });
      await item.locator("summary").click();
      await change();
      await page
        .getByRole("form", { name: `Edit ${title}` })
        .getByRole("button", { name: `Save ${title}` })
        .click();
      await expect(page.getByTestId("toast-status")).toHaveText("Course saved. Visitors see it now.");
    };
    await edit("Java", () =>
      page
        .getByRole("form", { name: "Edit Java" })
        .getByLabel("Price in rupees (empty: no amount shown)")
        .fill("17500"),
    );
    // Each instance's landing page, asked for every 25 ms from before the save until it drops
    // Linux: when each showed the change, each timed on its own.
    const watching = new AbortController();
    const goneAt = (instance: ServerProcess) =>
      (async () => {
        while (!watching.signal.aborted) {
          if (!shows(await landing(instance)).linux) return Date.now();
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return Number.NaN;
      })();
    const seen = { a: goneAt(instances!.a), b: goneAt(instances!.b) };
    const before = accessLog().length;
    const savedAt = Date.now();
    await edit("Linux", () =>
      page.getByRole("form", { name: "Edit Linux" }).getByLabel("Shown on the landing page").uncheck(),
    );
    const [save] = await logged(before, (hit) => hit.method === "POST" && hit.path.startsWith("/staff/courses"), 1);
    const stop = setTimeout(() => watching.abort(), 5_000);
    const seenAt = { a: await seen.a, b: await seen.b };
    clearTimeout(stop);
    // The change is made while the instance answers the save: timed from when the save reached
    // it (its log line's time less its duration), not from the click, which on a loaded machine
    // adds the browser's own delay.
    const receivedAt = arrivalOfLast(save!.instance, "/staff/courses");
    console.log(
      `catalogue saved through nginx on ${save!.instance}: Linux gone from / on A after ` +
        `${seenAt.a - receivedAt} ms, on B after ${seenAt.b - receivedAt} ms from the save's arrival ` +
        `(${seenAt.a - savedAt} and ${seenAt.b - savedAt} ms from the click)`,
    );
    for (const instance of [instances!.a, instances!.b]) {
      expect(shows(await landing(instance))).toEqual({ javaAt17500: true, linux: false });
    }
    expect(Math.max(seenAt.a, seenAt.b) - receivedAt).toBeLessThan(1000);
    await page.context().close();
  });

  test("signing out on one instance ends the session on the other", async ({ browser }) => {
    const learner = await signUp("Logout");
    const session = (instance: ServerProcess) =>
      fetch(`${instance.url}/api/auth/get-session`, { headers: { cookie: learner.cookie } }).then(
        (response) => response.json() as Promise<{ user: { id: string } } | null>,
      );
    // Read from each instance directly: the question is what each one thinks of the cookie.
    expect((await session(instances!.a))?.user.id).toBe(learner.id);
    expect((await session(instances!.b))?.user.id).toBe(learner.id);

    const page = await pageWith(browser, learner.cookie);
    await openLive(page, "/dashboard");
    const before = accessLog().length;
    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
    // The page may be sent to / twice (the sign-out's answer, and the live session noticing
    // it), the second aborting the first: the public page is what counts, not one navigation.
    await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(page).toHaveURL(`${site}/`);
    const [signOut] = await logged(before, (hit) => hit.path === "/api/auth/sign-out", 1);
    expect(signOut!.status).toBe(200);
    const other = signOut!.instance === "A" ? instances!.b : instances!.a;
    console.log(`signed out through nginx on ${signOut!.instance}; asking the other instance next`);
    expect(await session(other)).toBeNull();
    const dashboard = await fetch(`${other.url}/dashboard`, {
      headers: { cookie: learner.cookie },
      redirect: "manual",
    });
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("location")).toMatch(/^\/\?auth=login/);
    await page.context().close();
  });

  test("the per-IP sign-in limit holds across both instances", async () => {
    const attempts: number[] = [];
    const before = accessLog().length;
    for (let i = 0; i < authRateLimit + 3; i++) {
      // A new address each time: only the per-IP limit can refuse these.
      const response = await fetch(`${site}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: site },
        body: JSON.stringify({
          email: `nobody-${i}-${randomUUID().slice(0, 8)}@example.com`,
          password: "not-the-password",
        }),
      });
      attempts.push(response.status);
    }
    const hits = await logged(before, (hit) => hit.path === "/api/auth/sign-in/email", attempts.length);
    console.log(`sign-in attempts through nginx: ${hits.map((hit) => `${hit.status}@${hit.instance}`).join(", ")}`);
    expect(attempts).toEqual([...Array<number>(authRateLimit).fill(401), 429, 429, 429]);
    const instancesOf = (status: number) =>
      new Set(hits.filter((hit) => hit.status === status).map((hit) => hit.instance));
    expect(instancesOf(401)).toEqual(new Set(["A", "B"]));
    expect(instancesOf(429)).toEqual(new Set(["A", "B"]));
  });
});
