import { PassThrough } from "node:stream";
import sharp from "sharp";
import { afterEach, beforeEach, expect, it } from "vitest";
import { messages } from "~/accounts/messages";
import type { DashboardData } from "~/dashboard/dashboard-page.server";
import { settingsAction, type SettingsData } from "~/dashboard/settings-page.server";
import { profileMessages } from "~/learners/profile.server";
import { staffTopic, userTopic, type RealtimeEvent } from "~/realtime/events";
import type { loadLearnerPage } from "~/staff/staff-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

type LearnerPageData = Awaited<ReturnType<typeof loadLearnerPage>>;

const signUpPassword = "correct-horse-1";

describeEachDatabase("a learner's own profile: phone, course, photo and password", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let logs: string;
  let first: Learner;
  let second: Learner;
  let staff: Learner;
  let admin: Learner;

  beforeEach(async () => {
    handle = await database.open();
    logs = "";
    const logDestination = new PassThrough();
    logDestination.on("data", (chunk: Buffer) => (logs += chunk.toString()));
    h = await createHarness(handle, { logDestination });
    first = await h.signUp("first");
    second = await h.signUp("second");
    staff = await h.signUp("mentor");
    admin = await h.signUp("boss");
    await h.setRole(staff, "mentor");
    await h.setRole(admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const profileOf = async (learner: Learner) => {
    const page = await h.load<SettingsData>(learner, "/settings");
    expect(page.status).toBe(200);
    return page.data.settings.profile;
  };
  const storedProfile = (id: string) =>
    handle.db.selectFrom("user").select(["phone", "course", "role"]).where("id", "=", id).executeTakeFirstOrThrow();
  const edit = (learner: Learner | null, fields: Record<string, string>) =>
    h.act(learner, "/settings", { intent: "update-profile", ...fields }) as Promise<{
      status: number;
      data: { ok: boolean; message: string; field?: string };
    }>;
  const eventsOn = (topic: string) => {
    const received: RealtimeEvent[] = [];
    h.bus.subscribe(topic, (event) => received.push(event));
    return received;
  };

  it("saves a new phone and course, shows them on the settings page and to staff, and tells both live", async () => {
    expect(await profileOf(first)).toEqual({ phone: "9876543210", course: "Python" });
    const own = eventsOn(userTopic(first.id));
    const staffEvents = eventsOn(staffTopic);

    const saved = await edit(first, { phone: "9123456789", course: "Data Science" });
    expect(saved).toEqual({ status: 200, data: { ok: true, message: profileMessages.saved } });
    expect(await profileOf(first)).toEqual({ phone: "9123456789", course: "Data Science" });
    const card = await h.load<LearnerPageData>(staff, `/staff/learners/${first.id}`);
    expect(card.data.learner).toMatchObject({ phone: "9123456789", course: "Data Science" });
    await expect.poll(() => own).toContainEqual({ type: "profile" });
    await expect.poll(() => staffEvents).toContainEqual({ type: "profile", learnerId: first.id });
    // Nobody else's profile moved.
    expect(await profileOf(second)).toEqual({ phone: "9876543210", course: "Python" });
  });

  it("refuses what sign-up refuses, with its messages, naming the field, and changes nothing", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ course: "Java" }, "phone", "Phone number is required."],
      [{ phone: "", course: "Java" }, "phone", "Phone number is required."],
      [{ phone: "987654321", course: "Java" }, "phone", "Invalid phone number."],
      [{ phone: "98765432100", course: "Java" }, "phone", "Invalid phone number."],
      [{ phone: "98765-4321", course: "Java" }, "phone", "Invalid phone number."],
      [{ phone: "९८७६५४३२१०", course: "Java" }, "phone", "Invalid phone number."],
      [{ phone: "9".repeat(100_000), course: "Java" }, "phone", "Invalid phone number."],
      [{ phone: "9123456789" }, "course", "Course selection is required."],
      [{ phone: "9123456789", course: "" }, "course", "Course selection is required."],
      [
        { phone: "9123456789", course: "Basket Weaving" },
        "course",
        "That course is not offered. Please choose one from the list.",
      ],
      [
        { phone: "9123456789", course: "Python".repeat(10_000) },
        "course",
        "That course is not offered. Please choose one from the list.",
      ],
      [
        { phone: "9123456789", course: "Python\u0000" },
        "course",
        "That course is not offered. Please choose one from the list.",
      ],
    ];
    for (const [fields, field, message] of cases) {
      const refused = await edit(first, fields);
      expect(refused, JSON.stringify(fields).slice(0, 80)).toEqual({
        status: 400,
        data: { ok: false, message, field },
      });
    }
    expect(await profileOf(first)).toEqual({ phone: "9876543210", course: "Python" });
  });

  it("acts only on the signed-in user: another learner, staff and admin change only their own row", async () => {
    const naming = { learnerId: first.id, userId: first.id, id: first.id, role: "admin" };
    for (const [who, phone] of [
      [second, "9000000001"],
      [staff, "9000000002"],
      [admin, "9000000003"],
    ] as const) {
      const saved = await edit(who, { ...naming, phone, course: "Java" });
      expect(saved.status).toBe(200);
      expect(await storedProfile(who.id)).toMatchObject({ phone, course: "Java" });
    }
    // The learner named in every request is untouched, and a `role` field set no role.
    expect(await storedProfile(first.id)).toEqual({ phone: "9876543210", course: "Python", role: null });
    expect((await storedProfile(second.id)).role).toBeNull();
    const anonymous = await edit(null, { phone: "9000000004", course: "Java" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.data.message).toBe("Please log in.");
  });

  it("removes the photo: the row and the stored file go, staff are told, another learner can't remove it", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#0a0" } })
      .png()
      .toBuffer();
    const uploaded = await h.call(first, "POST", "/api/learner/photo", { body: png });
    const { photoUrl } = (await uploaded.json()) as { photoUrl: string };
    const storedFiles = async () => (await h.files()).filter((f) => f.startsWith("uploads/photos/"));
    expect(await storedFiles()).toHaveLength(1);
    const staffEvents = eventsOn(staffTopic);

    // Another learner, staff and an admin remove only their own (none): first's photo stays.
    for (const who of [second, staff, admin]) {
      const answer = await h.act(who, "/dashboard", { intent: "delete-photo", learnerId: first.id });
      expect(answer.status).toBe(200);
    }
    expect((await h.load<DashboardData>(first, "/dashboard")).data.learner.photoUrl).toBe(photoUrl);
    expect(await storedFiles()).toHaveLength(1);
    expect(staffEvents).toEqual([]);

    const removed = await h.act(first, "/dashboard", { intent: "delete-photo" });
    expect(removed).toEqual({ status: 200, data: { ok: true, message: profileMessages.photoRemoved } });
    expect((await h.load<DashboardData>(first, "/dashboard")).data.learner.photoUrl).toBeNull();
    expect(await storedFiles()).toEqual([]);
    expect((await h.call(null, "GET", photoUrl)).status).toBe(404);
    const card = await h.load<LearnerPageData>(staff, `/staff/learners/${first.id}`);
    expect(card.data.learner.photoUrl).toBeNull();
    await expect.poll(() => staffEvents).toContainEqual({ type: "photo", learnerId: first.id });
    // Again (another tab had removed it): nothing to do, and no error.
    expect((await h.act(first, "/dashboard", { intent: "delete-photo" })).status).toBe(200);
  });

  /** Signs in again as if on another device; the cookie of that new session. */
  const signInElsewhere = async (learner: Learner, password = signUpPassword) => {
    const response = await h.auth.api.signInEmail({
      body: { email: learner.email, password },
      headers: new Headers({ origin: appUrl, "x-upskill-client-ip": "203.0.113.9" }),
      asResponse: true,
    });
    if (!response.ok) return null;
    return response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  };
  /** The change-password intent as the settings page sends it, with the Set-Cookie values of the answer. */
  const changePassword = async (cookie: string, fields: Record<string, string>) => {
    const request = new Request(`${appUrl}/settings`, {
      method: "POST",
      headers: { origin: appUrl, cookie },
      body: new URLSearchParams({ intent: "change-password", ...fields }),
    });
    let cookies: string[] = [];
    const answer = await outcome<{ ok: boolean; message: string; field?: string }>(async () => {
      const result = await settingsAction(request);
      const init = (result as { init?: ResponseInit | null }).init;
      cookies = init?.headers ? new Headers(init.headers).getSetCookie() : [];
      return result;
    });
    return { ...answer, cookies };
  };
  const dashboardStatus = async (cookie: string) => (await h.load({ ...first, cookie }, "/dashboard")).status;

  it("changes the password with the right current one, ends every other session and keeps this one", async () => {
    const otherDevice = (await signInElsewhere(first))!;
    expect(await dashboardStatus(otherDevice)).toBe(200);
    const secondsOther = (await signInElsewhere(second))!;

    const newPassword = "a-brand-new-secret-9";
    const changed = await changePassword(first.cookie, {
      currentPassword: signUpPassword,
      newPassword,
      confirmPassword: newPassword,
    });
    expect(changed.status).toBe(200);
    expect(changed.data).toEqual({ ok: true, message: profileMessages.passwordChanged });
    // This tab goes on with the new session cookie the answer sets.
    const sessionCookie = changed.cookies.find((c) => c.startsWith("better-auth.session_token="));
    expect(sessionCookie).toBeDefined();
    expect(await dashboardStatus(sessionCookie!.split(";")[0]!)).toBe(200);
    // The other device's session has ended; so has the old cookie of this one (replaced above).
    expect(await dashboardStatus(otherDevice)).toBe(302);
    expect(await dashboardStatus(first.cookie)).toBe(302);
    // Another user's sessions are not touched.
    expect((await h.load(second, "/dashboard")).status).toBe(200);
    expect((await h.load({ ...second, cookie: secondsOther }, "/dashboard")).status).toBe(200);
    // Only the new password signs in now.
    expect(await signInElsewhere(first)).toBeNull();
    expect(await signInElsewhere(first, newPassword)).not.toBeNull();
    // No password reached the logs, at any level.
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [signUpPassword, newPassword]) expect(logs).not.toContain(secret);
  });

  it("refuses a wrong current password with a clear 400, and each sign-up rule for the new one", async () => {
    const otherDevice = (await signInElsewhere(first))!;
    const cases: [Record<string, string>, number, string, string][] = [
      [
        { currentPassword: "not-my-password", newPassword: "new-secret-99", confirmPassword: "new-secret-99" },
        400,
        "currentPassword",
        profileMessages.wrongCurrentPassword,
      ],
      [
        { newPassword: "new-secret-99", confirmPassword: "new-secret-99" },
        400,
        "currentPassword",
        "Current Password is required.",
      ],
      [{ currentPassword: signUpPassword, confirmPassword: "x" }, 400, "newPassword", "Password is required."],
      [
        { currentPassword: signUpPassword, newPassword: "short", confirmPassword: "short" },
        400,
        "newPassword",
        "Password must be at least 8 characters.",
      ],
      [
        { currentPassword: signUpPassword, newPassword: "x".repeat(129), confirmPassword: "x".repeat(129) },
        400,
        "newPassword",
        "Password must be at most 128 characters.",
      ],
      [
        { currentPassword: signUpPassword, newPassword: "new-secret-99" },
        400,
        "confirmPassword",
        "Confirm Password is required.",
      ],
      [
        { currentPassword: signUpPassword, newPassword: "new-secret-99", confirmPassword: "new-secret-98" },
        400,
        "confirmPassword",
        "Passwords do not match!",
      ],
    ];
    for (const [fields, status, field, message] of cases) {
      const refused = await changePassword(first.cookie, fields);
      expect({ status: refused.status, ...refused.data }, message).toEqual({ status, ok: false, message, field });
      expect(refused.cookies).toEqual([]);
    }
    // Nothing changed: both sessions live, the old password still signs in.
    expect(await dashboardStatus(first.cookie)).toBe(200);
    expect(await dashboardStatus(otherDevice)).toBe(200);
    expect(await signInElsewhere(first)).not.toBeNull();
    expect(logs).not.toContain("not-my-password");
    expect(logs).not.toContain(signUpPassword);
  });

  it("limits password checks per user in the database: wrong guesses soon get 429", async () => {
    const guess = { currentPassword: "guess-0000", newPassword: "new-secret-99", confirmPassword: "new-secret-99" };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await changePassword(first.cookie, guess)).status);
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    const limited = await changePassword(first.cookie, { ...guess, currentPassword: signUpPassword });
    expect(limited.status).toBe(429);
    expect(limited.data.message).toBe(messages.tooManyAttempts);
    // Another user's budget is their own.
    const other = await changePassword(second.cookie, guess);
    expect(other.status).toBe(400);
  });

  it("refuses a signed-out change-password", async () => {
    const refused = await h.act(null, "/settings", {
      intent: "change-password",
      currentPassword: signUpPassword,
      newPassword: "new-secret-99",
      confirmPassword: "new-secret-99",
    });
    expect(refused.status).toBe(401);
  });
});
