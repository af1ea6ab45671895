import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { handleAuthRequest } from "~/accounts/auth-handler.server";
import { createAuthFor, type Auth } from "~/accounts/auth.server";
import { createMailer } from "~/mail/mailer.server";
import { emailLimits } from "~/accounts/email-rate-limit.server";
import { completePasswordReset, resetTokenOwner } from "~/accounts/password-reset.server";
import { passwordMinLength } from "~/accounts/sign-up-schema";
import { loadConfig } from "~/config/config.server";
import { singleLineMessage } from "~/core/text";
import type { DatabaseHandle } from "~/db/database.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

const appUrl = "http://localhost:3999";
const tooMany = "Too many attempts. Please try again later.";

const valid = {
  username: "ananya",
  phone: "9876543210",
  course: "Python",
  gender: "female",
  email: "ananya@example.com",
  password: "correct-horse-1",
  confirmPassword: "correct-horse-1",
};

/** Every sign-up rule broken on its own, in order, with its message. */
const bypasses: [string, Record<string, unknown>, string][] = [
  ["username missing", { ...valid, username: undefined }, "Username is required."],
  ["username empty", { ...valid, username: "" }, "Username is required."],
  // One line, so that it stays one cell of the learner export.
  ["username over two lines", { ...valid, username: "Line1\nLine2" }, singleLineMessage],
  ["username with a tab", { ...valid, username: "\tananya" }, singleLineMessage],
  ["username ending in a carriage return", { ...valid, username: "ananya\r" }, singleLineMessage],
  ["phone empty", { ...valid, phone: "" }, "Phone number is required."],
  ["phone too short", { ...valid, phone: "987654321" }, "Invalid phone number."],
  ["phone too long", { ...valid, phone: "98765432100" }, "Invalid phone number."],
  ["course empty", { ...valid, course: "" }, "Course selection is required."],
  [
    "course not an option",
    { ...valid, course: "Basket Weaving" },
    "That course is not offered. Please choose one from the list.",
  ],
  ["gender empty", { ...valid, gender: "" }, "Gender selection is required."],
  ["gender not male/female", { ...valid, gender: "other" }, "Gender selection is required."],
  ["email empty", { ...valid, email: "" }, "Email is required."],
  ["email with a space", { ...valid, email: "ana nya@example.com" }, "Invalid email format."],
  ["email without a dot", { ...valid, email: "ananya@example" }, "Invalid email format."],
  ["password empty", { ...valid, password: "" }, "Password is required."],
  ["confirm password empty", { ...valid, confirmPassword: "" }, "Confirm Password is required."],
  ["passwords differ", { ...valid, confirmPassword: "correct-horse-2" }, "Passwords do not match!"],
  ["everything empty: the first rule wins", {}, "Username is required."],
];

describeEachDatabase("accounts: auth endpoints", (database) => {
  let handle: TestDatabaseHandle;
  let dataDir: string;
  let logLines: string[];
  const opened: DatabaseHandle[] = [];

  async function build(db: DatabaseHandle, env: Record<string, string> = {}): Promise<Auth> {
    const config = loadConfig({ APP_URL: appUrl, DATA_DIR: dataDir, AUTH_RATE_LIMIT: "3", ...env });
    const logger = pino(
      { level: "debug" },
      new Writable({
        write(chunk, _encoding, done) {
          logLines.push(String(chunk));
          done();
        },
      }),
    );
    return createAuthFor({
      db: db.db,
      dialect: db.dialect,
      config,
      logger,
      mailer: createMailer(config, logger),
    });
  }

  let auth: Auth;
  beforeEach(async () => {
    handle = await database.open();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upskill-auth-"));
    logLines = [];
    auth = await build(handle);
  });
  afterEach(async () => {
    for (const other of opened.splice(0)) await other.close();
    await handle.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (endpoint: string, body: unknown, headers: Record<string, string> = {}, via = auth, base = appUrl) =>
    handleAuthRequest(
      via,
      new Request(`${base}/api/auth${endpoint}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base, "x-upskill-client-ip": "203.0.113.7", ...headers },
        body: JSON.stringify(body),
      }),
    );
  const count = async (table: "user" | "account" | "session") =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("refuses each broken sign-up rule sent straight to the endpoint with its message, creating nothing", async () => {
    for (const [i, [name, body, message]] of bypasses.entries()) {
      // A fresh client address each time, so that only the rule under test can refuse.
      const response = await post("/sign-up/email", body, { "x-upskill-client-ip": `198.51.100.${i + 1}` });
      expect([name, response.status, ((await response.json()) as { message: string }).message]).toEqual([
        name,
        400,
        message,
      ]);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect(await count("user")).toBe(0);
    expect(await count("account")).toBe(0);
    expect(await count("session")).toBe(0);
  });

  it("creates the account with the form's fields, ignores `role` and the like, and signs in at once", async () => {
    const response = await post("/sign-up/email", {
      ...valid,
      email: "Ananya@Example.com",
      role: "admin",
      emailVerified: true,
      image: "https://evil.example/x.png",
      createdAt: "2000-01-01T00:00:00.000Z",
      id: "chosen-id",
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);

    const user = await handle.db.selectFrom("user").selectAll().executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      name: "ananya",
      username: "ananya",
      email: "ananya@example.com",
      phone: "9876543210",
      course: "Python",
      gender: "female",
      role: null,
      image: null,
    });
    expect(Boolean(user.emailVerified)).toBe(false);
    expect(user.id).not.toBe("chosen-id");
    const createdAt = new Date(user.createdAt);
    expect(Math.abs(createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    if (handle.dialect === "sqlite") expect(user.createdAt).toBe(createdAt.toISOString());
    expect(await count("session")).toBe(1);

    // The cookie is a working session.
    const session = await auth.api.getSession({ headers: new Headers({ cookie: cookie!.split(";")[0]! }) });
    expect(session?.user.email).toBe("ananya@example.com");
  });

  it("ignores `role` in a profile update and keeps the sign-up rules for its fields", async () => {
    const signedUp = await post("/sign-up/email", valid);
    const cookie = signedUp.headers.getSetCookie()[0]!.split(";")[0]!;
    const refused = await post("/update-user", { role: "admin", phone: "123" }, { cookie });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: "Invalid phone number." });
    const updated = await post("/update-user", { role: "admin", course: "Java" }, { cookie });
    expect(updated.status).toBe(200);
    expect(await handle.db.selectFrom("user").select(["role", "course", "phone"]).executeTakeFirstOrThrow()).toEqual({
      role: null,
      course: "Java",
      phone: "9876543210",
    });
  });

  it("refuses a password shorter than the minimum the sign-up form states, and takes one of that length", async () => {
    const short = "a".repeat(passwordMinLength - 1);
    const refused = await post("/sign-up/email", { ...valid, password: short, confirmPassword: short });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    expect(await count("user")).toBe(0);
    const enough = "a".repeat(passwordMinLength);
    const created = await post(
      "/sign-up/email",
      { ...valid, password: enough, confirmPassword: enough },
      { "x-upskill-client-ip": "198.51.100.60" },
    );
    expect(created.status).toBe(200);
  });

  it("answers a second sign-up with the same email clearly and changes nothing", async () => {
    expect((await post("/sign-up/email", valid)).status).toBe(200);
    const before = await handle.db.selectFrom("user").selectAll().executeTakeFirstOrThrow();
    const again = await post(
      "/sign-up/email",
      { ...valid, username: "someone", phone: "9000000000", password: "other-pass-1", confirmPassword: "other-pass-1" },
      { "x-upskill-client-ip": "198.51.100.50" },
    );
    expect(again.status).toBe(422);
    expect(((await again.json()) as { message: string }).message).toMatch(/already exists/);
    expect(await count("user")).toBe(1);
    expect(await handle.db.selectFrom("user").selectAll().executeTakeFirstOrThrow()).toEqual(before);
    // The old password still works.
    expect((await post("/sign-in/email", { email: valid.email, password: valid.password })).status).toBe(200);
  });

  it("answers 429 with the product's message past the per-IP limit, counted in the database", async () => {
    await post("/sign-up/email", valid, { "x-upskill-client-ip": "198.51.100.99" });
    const attempt = (ip: string, via = auth) =>
      post(
        "/sign-in/email",
        { email: `nobody${ip}@example.com`, password: "wrong" },
        { "x-upskill-client-ip": ip },
        via,
      );
    for (let i = 0; i < 3; i++) expect((await attempt("203.0.113.20")).status).toBe(401);
    const refused = await attempt("203.0.113.20");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ message: tooMany });

    // A second instance on the same database sees the same count.
    const other = await handle.reopen();
    opened.push(other);
    expect((await attempt("203.0.113.20", await build(other))).status).toBe(429);
    // Another client address is not affected.
    expect((await attempt("203.0.113.21")).status).toBe(401);
  });

  it("limits attempts per email and address strictly, so another address can't lock the owner out", async () => {
    // The per-IP limit well above the per-email one, so that the latter is what answers.
    auth = await build(handle, { AUTH_RATE_LIMIT: "100" });
    expect((await post("/sign-up/email", valid)).status).toBe(200);
    const attacker = { "x-upskill-client-ip": "198.51.100.66" };
    const { perAddress } = emailLimits["sign-in"];
    for (let i = 0; i < perAddress.max; i++) {
      expect((await post("/sign-in/email", { email: valid.email, password: "wrong" }, attacker)).status).toBe(401);
    }
    const refused = await post(
      "/sign-in/email",
      { email: valid.email.toUpperCase(), password: valid.password },
      attacker,
    );
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ message: tooMany });
    // The owner, from their own address, still signs in.
    const owner = { "x-upskill-client-ip": "192.0.2.200" };
    expect((await post("/sign-in/email", { email: valid.email, password: valid.password }, owner)).status).toBe(200);

    // Three reset requests from elsewhere don't block the owner's own reset.
    for (let i = 0; i < emailLimits.reset.perAddress.max; i++) {
      expect((await post("/request-password-reset", { email: valid.email }, attacker)).status).toBe(200);
    }
    expect((await post("/request-password-reset", { email: valid.email }, attacker)).status).toBe(429);
    expect((await post("/request-password-reset", { email: valid.email }, owner)).status).toBe(200);
  });

  it("limits attempts per email across all addresses at a much higher count", async () => {
    const { overall } = emailLimits.reset;
    for (let i = 0; i < overall.max; i++) {
      const response = await post(
        "/request-password-reset",
        { email: "target@example.com" },
        { "x-upskill-client-ip": `192.0.2.${i + 1}` },
      );
      expect(response.status).toBe(200);
    }
    const flood = await post(
      "/request-password-reset",
      { email: "target@example.com" },
      { "x-upskill-client-ip": "192.0.2.250" },
    );
    expect(flood.status).toBe(429);
  });

  it("limits password checks of a signed-in user like sign-in", async () => {
    const signedUp = await post("/sign-up/email", valid);
    const cookie = signedUp.headers.getSetCookie()[0]!.split(";")[0]!;
    const max = emailLimits["sign-in"].perAddress.max;
    for (let i = 0; i < max; i++) {
      const wrong = await post(
        "/verify-password",
        { password: "wrong" },
        { cookie, "x-upskill-client-ip": `10.9.0.${i}` },
      );
      expect(wrong.status).toBeLessThan(500);
      expect(wrong.status).not.toBe(429);
    }
    const refused = await post("/verify-password", { password: valid.password }, { cookie });
    expect(refused.status).toBe(429);
  });

  it("refuses oversized, invisible and malformed fields with a message, creating nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, username: "a".repeat(101) }, "Username must be at most 100 characters."],
      [{ ...valid, username: "\u200b\u200b\u2060" }, "Username must contain a letter or a digit."],
      [{ ...valid, phone: "98765-4321" }, "Invalid phone number."],
      [{ ...valid, phone: "९८७६५४३२१०" }, "Invalid phone number."],
      [{ ...valid, email: `${"a".repeat(250)}@example.com` }, "Email must be at most 254 characters."],
      [{ ...valid, email: `a@${".".repeat(100_000)}` }, "Email must be at most 254 characters."],
      [
        { ...valid, password: "p".repeat(129), confirmPassword: "p".repeat(129) },
        "Password must be at most 128 characters.",
      ],
    ];
    for (const [index, [body, message]] of cases.entries()) {
      const response = await post("/sign-up/email", body, { "x-upskill-client-ip": `198.51.100.${index + 1}` });
      expect(response.status, message).toBe(400);
      expect(await response.json()).toMatchObject({ message });
    }
    expect(await count("user")).toBe(0);
  });

  it("refuses control characters in any field of any auth endpoint with 400, on both databases", async () => {
    const signedUp = await post("/sign-up/email", valid);
    const cookie = signedUp.headers.getSetCookie()[0]!.split(";")[0]!;
    const attempts: [string, Record<string, unknown>, Record<string, string>?][] = [
      ["/sign-in/email", { email: "ananya\u0000@example.com", password: "x" }],
      ["/sign-in/email", { email: valid.email, password: "wrong\u0000" }],
      ["/sign-up/email", { ...valid, email: "b@example.com", username: "ana\u0000nya" }],
      ["/request-password-reset", { email: "ananya@example.com\u0000" }],
      ["/update-user", { name: "ana\u0007" }, { cookie }],
      ["/reset-password", { newPassword: "whatever-123", token: "abc\u0000" }],
    ];
    for (const [endpoint, body, headers] of attempts) {
      const response = await post(endpoint, body, headers);
      expect(response.status, endpoint).toBe(400);
      expect(await response.json()).toMatchObject({ message: "Remove the control characters from the text." });
    }
    expect(await count("user")).toBe(1);
  });

  it("refuses line breaks and tabs in the name a profile update sets, and keeps them in a password", async () => {
    const signedUp = await post("/sign-up/email", {
      ...valid,
      password: "tab\there-1",
      confirmPassword: "tab\there-1",
    });
    expect(signedUp.status).toBe(200);
    const cookie = signedUp.headers.getSetCookie()[0]!.split(";")[0]!;
    for (const name of ["Ana\nnya", "Ana\r\nnya", "Ana\tnya", "Ananya\n"]) {
      const response = await post("/update-user", { name }, { cookie });
      expect([response.status, await response.json()], name).toEqual([
        400,
        expect.objectContaining({ message: singleLineMessage }),
      ]);
    }
    const row = await handle.db.selectFrom("user").select(["name", "username"]).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "ananya", username: "ananya" });
    expect((await post("/sign-in/email", { email: valid.email, password: "tab\there-1" })).status).toBe(200);
  });

  it("validates profile updates like sign-up and never answers 5xx to odd values", async () => {
    const signedUp = await post("/sign-up/email", valid);
    const cookie = signedUp.headers.getSetCookie()[0]!.split(";")[0]!;
    const odd: unknown[] = [
      { name: null },
      { name: "x".repeat(101) },
      { name: 42 },
      { username: ["a"] },
      { phone: { digits: "9876543210" } },
      { email: "other@example.com" },
      { image: "https://evil.example/x.png" },
      [],
      "name",
      null,
    ];
    for (const body of odd) {
      const response = await post("/update-user", body, { cookie });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { message?: string }).message).toBeTruthy();
    }
    const user = await handle.db.selectFrom("user").select(["name", "email", "image"]).executeTakeFirstOrThrow();
    expect(user).toEqual({ name: valid.username, email: valid.email, image: null });
    expect((await post("/update-user", { name: "Ananya S" }, { cookie })).status).toBe(200);
  });

  it("checks the reset form's email on the server and answers alike for unknown addresses", async () => {
    const empty = await post("/request-password-reset", { email: "" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ message: "Email is required." });
    const malformed = await post("/request-password-reset", { email: "nope" }, { "x-upskill-client-ip": "192.0.2.7" });
    expect(await malformed.json()).toMatchObject({ message: "Invalid email format. Please enter a valid email." });

    await post("/sign-up/email", valid);
    const known = await post("/request-password-reset", { email: valid.email }, { "x-upskill-client-ip": "192.0.2.8" });
    const unknown = await post(
      "/request-password-reset",
      { email: "x@example.com" },
      { "x-upskill-client-ip": "192.0.2.9" },
    );
    expect([known.status, await known.text()]).toEqual([unknown.status, await unknown.text()]);
  });

  it("resets a password through the mailed link once, signs in, and keeps token and passwords out of logs", async () => {
    expect((await post("/sign-up/email", valid)).status).toBe(200);
    expect((await post("/request-password-reset", { email: valid.email })).status).toBe(200);

    // No SMTP_URL: the message is an .eml file in DATA_DIR/outbox.
    const outbox = path.join(dataDir, "outbox");
    await expect.poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).length : 0)).toBe(1);
    const eml = fs.readFileSync(path.join(outbox, fs.readdirSync(outbox)[0]!), "utf8");
    const decoded = eml
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    expect(decoded).toContain(`To: ${valid.email}`);
    const token = decoded.match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();

    const owner = await resetTokenOwner(auth, token!);
    expect(owner?.email).toBe(valid.email);
    const request = new Request(`${appUrl}/reset-password?token=${token}`, {
      method: "POST",
      headers: { origin: appUrl, "x-upskill-client-ip": "203.0.113.7" },
    });
    const done = await completePasswordReset(auth, request, token!, "brand-new-pass-9");
    expect(done.status).toBe("done");
    expect(done.status === "done" && done.cookies.some((c) => c.startsWith("better-auth.session_token="))).toBe(true);

    expect((await post("/sign-in/email", { email: valid.email, password: "brand-new-pass-9" })).status).toBe(200);
    expect((await post("/sign-in/email", { email: valid.email, password: valid.password })).status).toBe(401);
    expect(await resetTokenOwner(auth, token!)).toBeNull();
    expect((await completePasswordReset(auth, request, token!, "third-pass-333")).status).toBe("link-invalid");

    const log = logLines.join("");
    // Not even the outbox line: a token read from a log would reset the learner's password.
    expect(log).toContain("mail written to outbox");
    expect(log).not.toContain(token);
    for (const secret of [valid.password, "brand-new-pass-9", "third-pass-333"]) expect(log).not.toContain(secret);
  });

  it("refuses an expired reset link", async () => {
    expect((await post("/sign-up/email", valid)).status).toBe(200);
    expect((await post("/request-password-reset", { email: valid.email })).status).toBe(200);
    const row = await handle.db
      .selectFrom("verification")
      .select(["id", "identifier"])
      .where("identifier", "like", "reset-password:%")
      .executeTakeFirstOrThrow();
    const token = row.identifier.slice("reset-password:".length);
    expect(await resetTokenOwner(auth, token)).not.toBeNull();
    await handle.db
      .updateTable("verification")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", row.id)
      .execute();
    expect(await resetTokenOwner(auth, token)).toBeNull();
    const request = new Request(`${appUrl}/reset-password`, { method: "POST", headers: { origin: appUrl } });
    expect((await completePasswordReset(auth, request, token, "brand-new-pass-9")).status).toBe("link-invalid");
  });

  it("marks the session cookie Secure when APP_URL is https", async () => {
    const secureUrl = "https://learn.example.in";
    const secure = await build(handle, { APP_URL: secureUrl });
    const response = await post("/sign-up/email", valid, {}, secure, secureUrl);
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token="));
    expect(cookie).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });
});
