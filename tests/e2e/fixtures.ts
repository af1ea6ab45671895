// The one fixture module of the browser tests: people, each signed in within a browser
// context of their own, and the helpers that talk to the server as they would.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  expect,
  test as base,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from "@playwright/test";
import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from "react-router";
import { setRole } from "../support/e2e-roles";
import { startServerProcess, type ServerProcess } from "../support/server-process";

export { expect };

export const password = "e2e-password-1";

export interface Account {
  username: string;
  email: string;
  course: string;
}

export interface Person {
  context: BrowserContext;
  page: Page;
  account: Account;
}

/** A new account's sign-up fields, unique to this run. */
export function newAccount(name = "learner", course = "Python") {
  const id = randomUUID().slice(0, 8);
  return {
    username: `${name}${id}`,
    phone: "9876543210",
    course,
    gender: "female",
    email: `${name.toLowerCase()}-${id}@example.com`,
    password,
    confirmPassword: password,
  };
}

/** Creates an account through the API (this also signs `api` in). */
export async function signUpByApi(api: APIRequestContext, baseURL: string, account = newAccount()) {
  const response = await api.post(`${baseURL}/api/auth/sign-up/email`, { data: account, headers: { origin: baseURL } });
  expect(response.status(), await response.text()).toBe(200);
  return account;
}

/**
 * A fresh account with its own browser context, signed in (the context holds its cookie). On a
 * server a test started itself on SQLite, `dataDir` is where its role is set.
 */
export async function newPerson(
  browser: Browser,
  baseURL: string,
  name: string,
  options: { course?: string; role?: string; dataDir?: string } = {},
): Promise<Person> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const account: Account = await signUpByApi(page.request, baseURL, newAccount(name, options.course));
  if (options.role) await setRole(baseURL, account.email, options.role, options.dataDir);
  return { context, page, account };
}

/** The signed-in person's own user id, as better-auth reports it. */
export async function userId(page: Page): Promise<string> {
  const session = await page.request.get("/api/auth/get-session");
  return ((await session.json()) as { user: { id: string } }).user.id;
}

/** The text pdftotext (poppler-utils) finds in a PDF. */
export function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-e2e-pdf-"));
  try {
    fs.writeFileSync(path.join(dir, "document.pdf"), pdf);
    return execFileSync("pdftotext", [path.join(dir, "document.pdf"), "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Opens a signed-in page and waits for its live stream: a click before hydration would be lost. */
/**
 * The enquiry form's signed time as a visitor's page fetches it, once a person's minimum fill
 * time (3 s) has passed: what an enquiry posted outside the form needs to be stored.
 */
export async function agedEnquiryFormTime(api: APIRequestContext, baseURL: string): Promise<string> {
  const response = await api.get(`${baseURL}/api/enquiry-time`);
  expect(response.status()).toBe(200);
  const { formTime } = (await response.json()) as { formTime: string };
  await new Promise((resolve) => setTimeout(resolve, 3_100));
  return formTime;
}

export async function openLive(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main[data-live=connected]")).toBeVisible();
}

export interface ActionOutcome {
  status: number;
  /** The action's answer ({ ok, message, … }), or the loader/route error it threw. */
  data: { ok?: boolean; message?: string; count?: number } | undefined;
}

/**
 * Submits an `intent` to a page's action as the page's forms do (its `.data` address, same
 * origin), and reads the answer.
 */
export async function submitIntent(
  page: Page,
  baseURL: string,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<ActionOutcome> {
  const [pathname, query] = path.split("?");
  const url = `${baseURL}${pathname === "/" ? "/_.data" : `${pathname}.data`}${query ? `?${query}` : ""}`;
  const response = await page.request.post(url, {
    form: fields,
    headers: { origin: new URL(baseURL).origin, ...headers },
    maxRedirects: 0,
  });
  return { status: response.status(), data: await decodeAnswer(await response.body()) };
}

async function decodeAnswer(body: Buffer): Promise<ActionOutcome["data"]> {
  if (body.length === 0) return undefined;
  try {
    const stream = new Blob([new Uint8Array(body)]).stream();
    const decoded = (await decodeTurboStream(stream, globalThis)) as { value: unknown; done: Promise<unknown> };
    await decoded.done;
    const value = decoded.value as { data?: unknown; error?: unknown } | undefined;
    const answer = value?.data ?? value?.error;
    if (answer && typeof answer === "object" && "data" in answer)
      return (answer as { data: ActionOutcome["data"] }).data;
    return answer as ActionOutcome["data"];
  } catch {
    return undefined;
  }
}

/** Three people per test: a learner, a staff member (role "mentor") and an admin. */
// Playwright's fixture callback is named `use` by convention; here it is `provide`, which is
// what it does (and no React hook).
const personFixture =
  (name: string, role?: string) =>
  async (
    { browser, baseURL }: { browser: Browser; baseURL: string | undefined },
    provide: (person: Person) => Promise<void>,
  ) => {
    const person = await newPerson(browser, baseURL!, name, { role });
    await provide(person);
    await person.context.close();
  };

export const test = base.extend<{ learner: Person; staff: Person; admin: Person }>({
  learner: personFixture("Learner"),
  staff: personFixture("Mentor", "mentor"),
  admin: personFixture("Admin", "admin"),
});

/**
 * The staff list's learners as shown at this width: table rows on wide screens, cards on narrow
 * ones (both are in the page; the other is hidden).
 */
export const learnerItems = (page: Page) => page.getByTestId(/^learner-(card|row)$/).filter({ visible: true });

/**
 * A production server for one describe block's tests alone (what they change is the institute's:
 * its brand, signatory, checklist or catalogue), started before them and stopped after them.
 */
export function serverOfItsOwn(env: Record<string, string> = {}): Pick<ServerProcess, "url" | "dataDir"> {
  let server: ServerProcess | undefined;
  test.beforeAll(async () => {
    // A loaded machine (a shared CI runner) can take a minute to start a server.
    test.setTimeout(150_000);
    server = await startServerProcess({ NODE_ENV: "production", ...env }, { readyWithinMs: 120_000 });
  });
  test.afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });
  const started = () => {
    if (!server) throw new Error("The server of this describe block is not started yet.");
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    get dataDir() {
      return started().dataDir;
    },
  };
}
