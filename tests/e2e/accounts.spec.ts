import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, request as playwrightRequest, test, type Locator, type Page } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import { setRole } from "../support/e2e-roles";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { newAccount, password, signUpByApi } from "./fixtures";

/** Opens the modal through its address, which also waits for the page to be interactive. */
async function openAuth(page: Page, mode: "login" | "signup", base = "") {
  await page.goto(`${base}/?auth=${mode}`);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: mode === "login" ? "Log in" : "Sign up" })).toBeVisible();
  return dialog;
}

async function signInThroughModal(page: Page, email: string, secret: string, base = "") {
  const dialog = await openAuth(page, "login", base);
  await dialog.getByLabel("Email", { exact: true }).fill(email);
  await dialog.getByLabel("Password", { exact: true }).fill(secret);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  return dialog;
}

async function logOut(page: Page) {
  await page.getByRole("button", { name: "Logout" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
}

test.describe("auth modal", () => {
  test("opens from the Log in button, traps focus, closes on Esc and gives focus back", async ({ page }) => {
    await page.goto("/");
    const login = page.getByRole("link", { name: "Log in" });
    const dialog = page.getByRole("dialog");
    // A plain link (the landing page has no React): one click loads the page with the modal
    // open. Clicking again while that page loads would start the load over.
    await login.click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Email", { exact: true })).toBeFocused();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(login).toBeFocused();

    await login.click();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
  });

  test("switches between sign-in and sign-up by the links, and passes axe in both", async ({ page }) => {
    const dialog = await openAuth(page, "login");
    expect((await new AxeBuilder({ page }).include("[role=dialog]").analyze()).violations).toEqual([]);
    await dialog.getByRole("button", { name: "Sign up", exact: true }).click();
    await expect(dialog.getByRole("heading", { name: "Sign up" })).toBeVisible();
    for (const label of ["Username", "Phone", "Course", "Email", "Password", "Confirm Password"]) {
      await expect(dialog.getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(dialog.getByRole("radio", { name: "Male", exact: true })).toBeVisible();
    await expect(dialog.getByRole("radio", { name: "Female" })).toBeVisible();
    const course = dialog.getByLabel("Course", { exact: true });
    await expect(course.locator("option")).toHaveCount(37);
    expect(await course.inputValue()).toBe("");
    expect((await new AxeBuilder({ page }).include("[role=dialog]").analyze()).violations).toEqual([]);
    await dialog.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(dialog.getByRole("heading", { name: "Log in" })).toBeVisible();
  });

  for (const width of [1280, 375]) {
    test(`sign-up shows each rule's message in order and moves focus to its field, marked invalid, at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 740 });
      let signUpRequests = 0;
      page.on("request", (r) => r.url().includes("/api/auth/sign-up") && signUpRequests++);
      const dialog = await openAuth(page, "signup");
      const submit = () => dialog.getByRole("button", { name: "Sign up", exact: true }).click();
      const alert = dialog.getByRole("alert");
      const field = (label: string) => dialog.getByLabel(label, { exact: true });
      const expectMessage = async (message: string, about: Locator, invalidControls = 1) => {
        await submit();
        await expect(alert).toHaveText(message);
        await expect(about).toBeFocused();
        await expect(about).toHaveAttribute("aria-invalid", "true");
        // Described by the message (after its hint, for the password).
        const hint = (await about.getAttribute("id")) === "signup-password" ? "At least 8 characters. " : "";
        await expect(about).toHaveAccessibleDescription(`${hint}${message}`);
        // One message, about one field: no other control is marked.
        await expect(dialog.locator("[aria-invalid=true]")).toHaveCount(invalidControls);
      };

      await expectMessage("Username is required.", field("Username"));
      // Axe with a field marked invalid and described by the message.
      expect((await new AxeBuilder({ page }).include("[role=dialog]").analyze()).violations).toEqual([]);
      await field("Username").fill("meera");
      await expectMessage("Phone number is required.", field("Phone"));
      await field("Phone").fill("98765");
      await expectMessage("Invalid phone number.", field("Phone"));
      await field("Phone").fill("9876543210");
      await expectMessage("Course selection is required.", field("Course"));
      await field("Course").selectOption("Data Structures and Algorithms (DSA)");
      // Both radios are marked; the first takes focus.
      await expectMessage("Gender selection is required.", dialog.getByRole("radio", { name: "Male", exact: true }), 2);
      await expect(dialog.getByRole("radio", { name: "Female" })).toHaveAttribute("aria-invalid", "true");
      await dialog.getByRole("radio", { name: "Female" }).check();
      await expectMessage("Email is required.", field("Email"));
      await field("Email").fill("meera at example.com");
      await expectMessage("Invalid email format.", field("Email"));
      await field("Email").fill("meera@example");
      await expectMessage("Invalid email format.", field("Email"));
      await field("Email").fill("meera@example.com");
      await expectMessage("Password is required.", field("Password"));
      await field("Password").fill(password);
      await expectMessage("Confirm Password is required.", field("Confirm Password"));
      await field("Confirm Password").fill("something-else");
      await expectMessage("Passwords do not match!", field("Confirm Password"));
      // The earlier fields are no longer marked once their rule passes.
      await expect(field("Username")).not.toHaveAttribute("aria-invalid");
      expect(signUpRequests).toBe(0);
    });

    test(`the sign-up form states the password's minimum length beside the field at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 740 });
      const dialog = await openAuth(page, "signup");
      const passwordField = dialog.getByLabel("Password", { exact: true });
      const hint = dialog.getByText("At least 8 characters.");
      await expect(hint).toBeVisible();
      await expect(passwordField).toHaveAccessibleDescription("At least 8 characters.");
      // The provider's refusal of a shorter one is about the password: focus goes there.
      await dialog.getByLabel("Username", { exact: true }).fill("meera");
      await dialog.getByLabel("Phone", { exact: true }).fill("9876543210");
      await dialog.getByLabel("Course", { exact: true }).selectOption("Java");
      await dialog.getByRole("radio", { name: "Female" }).check();
      await dialog.getByLabel("Email", { exact: true }).fill(`short-${randomUUID().slice(0, 8)}@example.com`);
      await passwordField.fill("seven77");
      await dialog.getByLabel("Confirm Password", { exact: true }).fill("seven77");
      await dialog.getByRole("button", { name: "Sign up", exact: true }).click();
      await expect(dialog.getByRole("alert")).toHaveText("Password too short");
      await expect(passwordField).toBeFocused();
      await expect(passwordField).toHaveAttribute("aria-invalid", "true");
      await expect(passwordField).toHaveAccessibleDescription("At least 8 characters. Password too short");
      await expect(page.getByRole("dialog")).toBeVisible();
    });

    test(`switching between Log in, Sign up and Forgot Password keeps what was typed at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 740 });
      const dialog = await openAuth(page, "login");
      await dialog.getByLabel("Email", { exact: true }).fill("meera@example.com");
      await dialog.getByLabel("Password", { exact: true }).fill("typed-once-1");
      await dialog.getByRole("button", { name: "Sign up", exact: true }).click();
      await expect(dialog.getByRole("heading", { name: "Sign up" })).toBeVisible();
      await expect(dialog.getByLabel("Email", { exact: true })).toHaveValue("meera@example.com");
      await expect(dialog.getByLabel("Password", { exact: true })).toHaveValue("typed-once-1");
      await dialog.getByLabel("Username", { exact: true }).fill("meera");
      await dialog.getByLabel("Email", { exact: true }).fill("meera@example.org");
      await dialog.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(dialog.getByRole("heading", { name: "Log in" })).toBeVisible();
      await expect(dialog.getByLabel("Email", { exact: true })).toHaveValue("meera@example.org");
      await expect(dialog.getByLabel("Password", { exact: true })).toHaveValue("typed-once-1");
      await dialog.getByRole("button", { name: "Forgot Password" }).click();
      await expect(dialog.getByLabel("Email", { exact: true })).toHaveValue("meera@example.org");
      await dialog.getByRole("button", { name: "Back to Login" }).click();
      await dialog.getByRole("button", { name: "Sign up", exact: true }).click();
      await expect(dialog.getByLabel("Username", { exact: true })).toHaveValue("meera");
      await expect(dialog.getByLabel("Password", { exact: true })).toHaveValue("typed-once-1");
    });
  }

  test("the phone input refuses an 11th character", async ({ page }) => {
    const dialog = await openAuth(page, "signup");
    const phone = dialog.getByLabel("Phone", { exact: true });
    await phone.pressSequentially("98765432101");
    await expect(phone).toHaveValue("9876543210");
  });

  test("sign-up signs in at once and lands on 'Welcome {username}!'; a taken email changes nothing", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const account = newAccount();
    const dialog = await openAuth(page, "signup");
    await dialog.getByLabel("Username", { exact: true }).fill(account.username);
    await dialog.getByLabel("Phone", { exact: true }).fill(account.phone);
    await dialog.getByLabel("Course", { exact: true }).selectOption(account.course);
    await dialog.getByRole("radio", { name: "Female" }).check();
    await dialog.getByLabel("Email", { exact: true }).fill(account.email);
    await dialog.getByLabel("Password", { exact: true }).fill(account.password);
    await dialog.getByLabel("Confirm Password", { exact: true }).fill(account.password);
    await dialog.getByRole("button", { name: "Sign up", exact: true }).click();

    await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(page.getByRole("button", { name: "Admin" })).toHaveCount(0);
    const session = (await context.cookies()).find((c) => c.name.endsWith("session_token"));
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    // Still signed in after a reload, and /dashboard shows the same view.
    await page.reload();
    await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // The same email again, from a signed-out browser: a clear message.
    const again = await request.post("/api/auth/sign-up/email", {
      data: { ...account, username: "someone-else" },
      headers: { origin: baseURL! },
    });
    expect(again.status()).toBe(422);
  });

  test("a taken email shows a clear message in the modal", async ({ page, request, baseURL }) => {
    const account = await signUpByApi(request, baseURL!);
    const dialog = await openAuth(page, "signup");
    await dialog.getByLabel("Username", { exact: true }).fill("another");
    await dialog.getByLabel("Phone", { exact: true }).fill("9123456789");
    await dialog.getByLabel("Course", { exact: true }).selectOption("Java");
    await dialog.getByRole("radio", { name: "Male", exact: true }).check();
    await dialog.getByLabel("Email", { exact: true }).fill(account.email);
    await dialog.getByLabel("Password", { exact: true }).fill("another-password");
    await dialog.getByLabel("Confirm Password", { exact: true }).fill("another-password");
    await dialog.getByRole("button", { name: "Sign up", exact: true }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "An account with this email already exists. Please log in instead.",
    );
    const email = dialog.getByLabel("Email", { exact: true });
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription(
      "An account with this email already exists. Please log in instead.",
    );
  });

  test("Logout asks first: No stays, Yes returns to the public page", async ({ page, baseURL }) => {
    const account = await signUpByApi(page.request, baseURL!);
    await page.goto("/");
    const welcome = page.getByRole("heading", { name: `Welcome ${account.username}!` });
    await expect(welcome).toBeVisible();

    const logout = page.getByRole("button", { name: "Logout" });
    const confirm = page.getByRole("dialog");
    await expect(async () => {
      await logout.click();
      await expect(confirm).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await expect(confirm).toContainText("Are you sure you want to log out?");
    await confirm.getByRole("button", { name: "No" }).click();
    await expect(confirm).toBeHidden();
    await expect(welcome).toBeVisible();

    await logout.click();
    await confirm.getByRole("button", { name: "Yes" }).click();
    await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    // A signed-in page sends to the login, and back there once signed in.
    await page.goto("/dashboard?show=tasks");
    await expect(page).toHaveURL(/\/\?auth=login&redirectTo=%2Fdashboard%3Fshow%3Dtasks$/);
    const login = page.getByRole("dialog");
    await expect(login.getByRole("heading", { name: "Log in" })).toBeVisible();
    await login.getByLabel("Email", { exact: true }).fill(account.email);
    await login.getByLabel("Password", { exact: true }).fill(account.password);
    await login.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\?show=tasks$/);
    await expect(page.getByRole("dialog", { name: "Tasks" })).toBeVisible();
  });

  test("a wrong password shows the provider's message; the right one signs in", async ({ page, request, baseURL }) => {
    const account = await signUpByApi(request, baseURL!);
    const dialog = await signInThroughModal(page, account.email, "not-the-password");
    await expect(dialog.getByRole("alert")).toHaveText("Invalid email or password");
    // Either may be wrong, so both are marked; the password, to type again, has focus.
    const secret = dialog.getByLabel("Password", { exact: true });
    await expect(secret).toBeFocused();
    for (const field of [secret, dialog.getByLabel("Email", { exact: true })]) {
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription("Invalid email or password");
    }
    await dialog.getByLabel("Password", { exact: true }).fill(account.password);
    await dialog.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
  });

  test("staff and admins land on the workspace after signing in, learners on their dashboard; a redirectTo wins", async ({
    browser,
    request,
    baseURL,
  }) => {
    const signInAs = async (role: string | null, path = "/?auth=login") => {
      const account = await signUpByApi(request, baseURL!, newAccount(role ?? "learner"));
      if (role) await setRole(baseURL!, account.email, role);
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await page.goto(path);
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Email", { exact: true }).fill(account.email);
      await dialog.getByLabel("Password", { exact: true }).fill(account.password);
      await dialog.getByRole("button", { name: "Log in", exact: true }).click();
      return { page, account, context };
    };
    for (const role of ["mentor", "admin"]) {
      const { page, context } = await signInAs(role);
      await expect(page).toHaveURL(/\/staff$/);
      await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
      await context.close();
    }
    const learner = await signInAs(null);
    await expect(learner.page.getByRole("heading", { name: `Welcome ${learner.account.username}!` })).toBeVisible();
    await expect(learner.page).toHaveURL(/\/$/);
    await learner.context.close();
    // A page that sent a staff member to log in is where they go back.
    const returning = await signInAs("admin", "/?auth=login&redirectTo=%2Fstaff%2Faudit");
    await expect(returning.page).toHaveURL(/\/staff\/audit$/);
    await returning.context.close();
  });

  test("too many sign-in attempts for one email answer 'Too many attempts. Please try again later.'", async ({
    page,
    request,
    baseURL,
  }) => {
    const account = await signUpByApi(request, baseURL!);
    for (let i = 0; i < 10; i++) {
      await request.post("/api/auth/sign-in/email", {
        data: { email: account.email, password: "guess" },
        headers: { origin: baseURL! },
      });
    }
    const dialog = await signInThroughModal(page, account.email, account.password);
    await expect(dialog.getByRole("alert")).toHaveText("Too many attempts. Please try again later.");
  });

  test("the reset form: both messages, then the success line and toast", async ({ page }) => {
    const dialog = await openAuth(page, "login");
    await dialog.getByRole("button", { name: "Forgot Password" }).click();
    await expect(dialog.getByRole("heading", { name: "Forgot Password" })).toBeVisible();
    const reset = dialog.getByRole("button", { name: "Reset Password" });
    const email = dialog.getByLabel("Email", { exact: true });

    await reset.click();
    await expect(dialog.getByRole("alert")).toHaveText("Email is required.");
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await email.fill("not-an-email");
    await reset.click();
    await expect(dialog.getByRole("alert")).toHaveText("Invalid email format. Please enter a valid email.");
    await expect(email).toBeFocused();
    await expect(email).toHaveAccessibleDescription("Invalid email format. Please enter a valid email.");
    // The same answer whether or not an account has the address.
    await email.fill(`nobody-${randomUUID().slice(0, 8)}@example.com`);
    await reset.click();
    await expect(dialog.getByText("Password reset email sent successfully! Please check your inbox.")).toBeVisible();
    await expect(dialog.getByText("If an account exists for that email, the link is on its way.")).toBeVisible();
    await expect(dialog.getByRole("status").filter({ hasText: "Reset email sent successfully!" })).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveText("");
    await expect(email).not.toHaveAttribute("aria-invalid");
    expect((await new AxeBuilder({ page }).include("[role=dialog]").analyze()).violations).toEqual([]);

    await dialog.getByRole("button", { name: "Back to Login" }).click();
    await expect(dialog.getByRole("heading", { name: "Log in" })).toBeVisible();
  });

  test("signing out in one tab sends the other tab to the public page within 2 seconds", async ({
    context,
    baseURL,
  }) => {
    const first = await context.newPage();
    const account = await signUpByApi(first.request, baseURL!);
    await first.goto("/");
    const second = await context.newPage();
    await second.goto("/dashboard");
    await expect(second.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
    await second.waitForLoadState("networkidle");

    await expect(first.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
    await logOut(first);
    await expect(second.getByRole("link", { name: "Log in" })).toBeVisible({ timeout: 2_000 });
  });

  test("a session revoked on the server ends on the next request", async ({ page, baseURL }) => {
    const account = await signUpByApi(page.request, baseURL!);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
    // Another device (its own cookies) revokes every session of the account.
    const other = await playwrightRequest.newContext({ baseURL });
    await other.post("/api/auth/sign-in/email", {
      data: { email: account.email, password: account.password },
      headers: { origin: baseURL! },
    });
    const revoke = await other.post("/api/auth/revoke-other-sessions", { data: {}, headers: { origin: baseURL! } });
    expect(revoke.status()).toBe(200);
    await other.dispose();
    await page.reload();
    await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  });
});

/** Decodes a quoted-printable MIME body well enough to find a link in it. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

test.describe("password reset by email", () => {
  let smtp: SMTPServer;
  let server: ServerProcess;
  const mails: { to: string[]; raw: string }[] = [];

  test.beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const address = smtp.server.address();
    const smtpPort = typeof address === "object" && address ? address.port : 0;
    // Its own server, so that its mail goes to this test's SMTP server.
    server = await startServerProcess({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, AUTH_RATE_LIMIT: "100" });
  });

  test.afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  test("the link in the mail sets a new password once and signs in", async ({ page }) => {
    // The server's APP_URL is its own URL: browse there, as the mailed link does.
    const base = server.url;
    const api = await playwrightRequest.newContext();
    const account = await signUpByApi(api, base);
    await api.dispose();

    const dialog = await openAuth(page, "login", base);
    await dialog.getByRole("button", { name: "Forgot Password" }).click();
    await dialog.getByLabel("Email", { exact: true }).fill(account.email);
    await dialog.getByRole("button", { name: "Reset Password" }).click();
    await expect(dialog.getByText("Password reset email sent successfully! Please check your inbox.")).toBeVisible();

    await expect.poll(() => mails.filter((m) => m.to.includes(account.email)).length, { timeout: 10_000 }).toBe(1);
    const mail = decodeQuotedPrintable(mails.find((m) => m.to.includes(account.email))!.raw);
    const link = mail.match(/https?:\/\/[^\s"<>]+\/reset-password\?token=[A-Za-z0-9%_-]+/)?.[0];
    expect(link, mail).toBeTruthy();
    expect(link!.startsWith(`${base}/reset-password?token=`)).toBe(true);

    // Follow it, set the new password twice: signed in at once.
    await page.goto(link!);
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expect(page.getByRole("alert")).toHaveText("Password is required.");
    const newPassword = "second-password-2";
    await page.getByLabel("New Password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm New Password", { exact: true }).fill("different-password");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expect(page.getByRole("alert")).toHaveText("Passwords do not match!");
    await page.getByLabel("New Password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm New Password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
    await expect(page.getByTestId("toast-status")).toHaveText("Your password has been changed.");
    await expect(page).toHaveURL(`${base}/`);
    await logOut(page);

    // The new password works; the old one no longer does.
    await signInThroughModal(page, account.email, newPassword, base);
    await expect(page.getByRole("heading", { name: `Welcome ${account.username}!` })).toBeVisible();
    await logOut(page);
    const dialogAgain = await signInThroughModal(page, account.email, account.password, base);
    await expect(dialogAgain.getByRole("alert")).toHaveText("Invalid email or password");

    // The link works once.
    await page.goto(link!);
    await expect(page.getByRole("alert")).toHaveText("This password reset link has expired or has already been used.");
    await page.getByRole("link", { name: "Ask for a new link" }).click();
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Forgot Password" })).toBeVisible();

    // Neither the token nor a password reached the server's log.
    const token = new URL(link!).searchParams.get("token")!;
    const log = server.lines.join("\n");
    expect(log).not.toContain(token);
    expect(log).not.toContain(newPassword);
    expect(log).not.toContain(account.password);
  });
});

test.describe("auth modal with the mobile menu open", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("Esc closes the modal and leaves the menu open", async ({ page }) => {
    // The page as sent to a visitor has no React: the first Log in loads it with the modal open.
    await openAuth(page, "login");
    await page.keyboard.press("Escape");
    const toggle = page.getByRole("button", { name: "Menu" });
    await expect(async () => {
      if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true", { timeout: 500 });
    }).toPass();
    await page.getByRole("banner").getByRole("link", { name: "Log in" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Log in" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
  });
});
