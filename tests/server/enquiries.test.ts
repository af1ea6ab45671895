import { afterEach, beforeEach, expect, it } from "vitest";
import { enquiryMessages, minimumFillMs } from "~/enquiries/enquiry-fields";
import { enquiryLimit, formTimeToken } from "~/enquiries/enquiry-form-page.server";
import { loadEnquiryInbox } from "~/enquiries/inbox-page.server";
import { purgeOldEnquiries } from "~/enquiries/enquiries.server";
import { CLIENT_IP_HEADER } from "~/http/request-context";
import { staffTopic, type RealtimeEvent } from "~/realtime/events";
import * as enquiryTimeRoute from "~/routes/api.enquiry-time";
import * as contactRoute from "~/routes/contact";
import * as homeRoute from "~/routes/home";
import { loader as rootLoader } from "~/root";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

type Answer = {
  form: "enquiry";
  step: "sent" | "check" | "form";
  message: string;
  token?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
};

const person = {
  name: "Meera Kulkarni",
  phone: "9876543210",
  email: "meera@example.com",
  course: "Web Development",
  message: "Is there an evening batch?\nI work until 6.",
  callbackTime: "evening",
};

describeEachDatabase("enquiries: the public form, the staff inbox, the emails", (database) => {
  let handle: TestDatabaseHandle;
  let smtp: TestSmtp;
  let h: Harness;
  let learner: Learner;
  let staff: Learner;

  beforeEach(async () => {
    handle = await database.open();
    smtp = await startSmtp();
    h = await createHarness(handle, {
      env: { SMTP_URL: smtp.url, SITE_EMAIL: "office@institute.example", SITE_NAME: "Upskill Pune" },
      mailWorker: { retryBaseMs: 1 },
    });
    learner = await h.signUp("Leena");
    staff = await h.signUp("Suresh");
    await h.setRole(staff, "mentor");
  });
  afterEach(async () => {
    await h.dispose();
    await smtp.close();
    await handle.dispose();
  });

  /** Posts the enquiry form to a page's action, as a browser at this address would. */
  const post = (fields: Record<string, string>, options: { path?: "/" | "/contact"; ip?: string } = {}) => {
    const path = options.path ?? "/contact";
    const request = new Request(`${appUrl}${path === "/" ? "/?index" : path}`, {
      method: "POST",
      headers: { origin: appUrl, [CLIENT_IP_HEADER]: options.ip ?? "203.0.113.7" },
      body: new URLSearchParams({ intent: "enquiry", website: "", ...fields }),
    });
    const args = { request, params: {}, context: {} } as never;
    return outcome<Answer>(() => (path === "/" ? homeRoute.action(args) : contactRoute.action(args)));
  };
  const enquiries = () => handle.db.selectFrom("enquiry").selectAll().execute();
  /** The form's time as this server signed it for a visitor who touched the form 5 s ago. */
  const shownEarlier = () => formTimeToken(h.services.unsubscribeKey, Date.now() - 5_000);
  /** The form's time as the page's script fetches it. */
  const fetchFormTime = async () => {
    const response = await enquiryTimeRoute.loader();
    expect(response.headers.get("cache-control")).toBe("no-store");
    return ((await response.json()) as { formTime: string }).formTime;
  };
  const inbox = (user: Learner | null, query = "") =>
    outcome<Awaited<ReturnType<typeof loadEnquiryInbox>>>(() =>
      loadEnquiryInbox(
        new Request(`${appUrl}/staff/enquiries${query}`, { headers: user ? { cookie: user.cookie } : {} }),
      ),
    );

  it("stores an enquiry from / and /contact and emails it to SITE_EMAIL through the queue", async () => {
    const events: RealtimeEvent[] = [];
    const stop = h.bus.subscribe(staffTopic, (event) => void events.push(event));
    const sent = await post({ ...person, formTime: shownEarlier() });
    expect(sent).toMatchObject({ status: 200, data: { step: "sent" } });
    expect(sent.data.message).toBe(enquiryMessages.sent("Meera Kulkarni"));
    expect(await post({ ...person, name: "Arjun", email: "", formTime: shownEarlier() }, { path: "/" })).toMatchObject({
      status: 200,
      data: { step: "sent" },
    });
    stop();
    expect(events).toEqual([{ type: "enquiries" }, { type: "enquiries" }]);
    const rows = await enquiries();
    expect(rows.map((row) => [row.name, row.email, row.status]).sort()).toEqual([
      ["Arjun", null, "new"],
      ["Meera Kulkarni", "meera@example.com", "new"],
    ]);
    expect(rows.find((row) => row.name === "Meera Kulkarni")).toMatchObject({
      phone: "9876543210",
      course: "Web Development",
      message: "Is there an evening batch?\nI work until 6.",
      callbackTime: "evening",
    });

    // Queued in the same transaction; the SMTP server down at first loses nothing.
    smtp.refuseNext(2, 451);
    await h.services.mailWorker.runOnce();
    expect(smtp.mails).toHaveLength(0);
    const queued = await handle.db.selectFrom("mail_job").select(["kind", "status", "learnerId"]).execute();
    expect(queued.map((job) => ({ ...job }))).toEqual([
      { kind: "enquiry", status: "pending", learnerId: null },
      { kind: "enquiry", status: "pending", learnerId: null },
    ]);
    await handle.db.updateTable("mail_job").set({ nextAttemptAt: Date.now() }).execute();
    await h.services.mailWorker.runOnce();
    expect(smtp.mails).toHaveLength(2);
    expect(smtp.mails.every((mail) => mail.to.includes("office@institute.example"))).toBe(true);
    const meera = smtp.mails.find((mail) => mail.parsed.subject === "New enquiry from Meera Kulkarni: Web Development");
    expect(meera?.parsed.text).toContain("Phone: 9876543210");
    expect(meera?.parsed.text).toContain("Call back: Evening (4 pm to 8 pm)");
    expect(meera?.parsed.text).toContain("I work until 6.");
    expect(meera?.parsed.replyTo?.text).toBe("meera@example.com");
    expect(smtp.mails.find((mail) => mail.parsed.subject?.startsWith("New enquiry from Arjun"))?.parsed.replyTo).toBe(
      undefined,
    );
  });

  it("refuses a filled honeypot and a form sent too fast, with a clear message, and stores nothing", async () => {
    const bot = await post({ ...person, website: "http://spam.example", formTime: shownEarlier() });
    expect(bot).toMatchObject({ status: 400, data: { step: "form", message: enquiryMessages.refused } });
    const fast = await post({ ...person, formTime: await fetchFormTime() });
    expect(fast).toMatchObject({ status: 400, data: { step: "form", message: enquiryMessages.tooFast } });
    // What was typed comes back, so the person only presses Send again.
    expect(fast.data.values).toMatchObject({ name: "Meera Kulkarni", phone: "9876543210" });
    expect(await enquiries()).toEqual([]);
    expect(await handle.db.selectFrom("mail_job").select("key").execute()).toEqual([]);
  });

  it("with JavaScript: the fill time runs from a time the server signed, never from one the client sends", async () => {
    const formTime = await fetchFormTime();
    // At once: too fast, however long the client says the form was open.
    for (const fields of [{ formTime }, { formTime, fillMs: "60000" }] as Record<string, string>[]) {
      expect(await post({ ...person, ...fields }, { ip: "192.0.2.1" })).toMatchObject({
        status: 400,
        data: { message: enquiryMessages.tooFast },
      });
    }
    // Missing, forged, moved back in time, from the future, or the other kind of token: the
    // check step with a new signed time, never a stored enquiry.
    const [issued, signature] = formTime.split(".");
    const now = Date.now();
    let tried = 0;
    for (const fields of [
      {},
      { fillMs: "5000" },
      { formTime: `${Number(issued) - 5_000}.${signature}` },
      { formTime: `${now - 5_000}.${"A".repeat(43)}` },
      { formTime: formTimeToken(h.services.unsubscribeKey, now + 60_000) },
      { formTime: formTimeToken(h.services.unsubscribeKey, now - 3_700_000) },
      { formTime: formTimeToken(Buffer.from("not this server's key"), now - 5_000) },
      { formTime: "x".repeat(5_000) },
    ] as Record<string, string>[]) {
      // Each from its own address: the per-IP limit is not what this checks.
      const ip = `192.0.2.${10 + (tried += 1)}`;
      expect(await post({ ...person, ...fields }, { ip }), JSON.stringify(fields).slice(0, 80)).toMatchObject({
        status: 200,
        data: { step: "check" },
      });
    }
    const check = await post(person);
    expect(await post({ ...person, formTime: check.data.token! })).toMatchObject({ data: { step: "check" } });
    expect(await enquiries()).toEqual([]);

    // The same signed time, once a person's minimum has passed: one step, stored.
    await new Promise((resolve) => setTimeout(resolve, minimumFillMs + 50));
    expect(await post({ ...person, formTime })).toMatchObject({ status: 200, data: { step: "sent" } });
    expect((await enquiries()).map((row) => row.name)).toEqual(["Meera Kulkarni"]);
  });

  it("without JavaScript: a check step with a signed time, stored only when sent back after the minimum time", async () => {
    const first = await post(person);
    expect(first).toMatchObject({ status: 200, data: { step: "check", message: enquiryMessages.check } });
    const token = first.data.token!;
    // Sent back at once (a bot): too fast.
    expect(await post({ ...person, token })).toMatchObject({ status: 400, data: { message: enquiryMessages.tooFast } });
    // A token made for other values, or forged, is another check step, not an enquiry.
    const [issued, signature] = token.split(".");
    const older = `${Number(issued) - minimumFillMs - 1000}.${signature}`;
    expect(await post({ ...person, token: older })).toMatchObject({ data: { step: "check" } });
    expect(await post({ ...person, message: "Changed", token })).toMatchObject({ data: { step: "check" } });
    expect(await enquiries()).toEqual([]);
    // "Change details" gives the form back, filled in.
    expect(await post({ ...person, token, step: "edit" })).toMatchObject({
      status: 200,
      data: { step: "form", values: { name: "Meera Kulkarni" } },
    });
    await new Promise((resolve) => setTimeout(resolve, minimumFillMs + 50));
    expect(await post({ ...person, token })).toMatchObject({ status: 200, data: { step: "sent" } });
    expect((await enquiries()).map((row) => row.name)).toEqual(["Meera Kulkarni"]);
  });

  it("limits each client IP in the database (429 with a message); other addresses go on", async () => {
    for (let i = 0; i < enquiryLimit.max; i++) {
      expect((await post({ ...person, formTime: shownEarlier() }, { ip: "198.51.100.1" })).status).toBe(200);
    }
    const refused = await post({ ...person, formTime: shownEarlier() }, { ip: "198.51.100.1" });
    expect(refused).toMatchObject({ status: 429, data: { message: enquiryMessages.tooMany } });
    expect((await post({ ...person, formTime: shownEarlier() }, { ip: "198.51.100.2" })).status).toBe(200);
    expect(await enquiries()).toHaveLength(enquiryLimit.max + 1);
    const counter = await handle.db
      .selectFrom("rate_limit")
      .select("count")
      .where("key", "=", "enquiry:198.51.100.1")
      .executeTakeFirst();
    expect(Number(counter?.count)).toBe(enquiryLimit.max + 1);
  });

  it("checks every field with a 400 and a message per field, never a 500", async () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ name: "" }, "name", /Name is required/],
      [{ name: "x".repeat(101) }, "name", /at most 100/],
      [{ name: "Meera\u0000" }, "name", /plain text/],
      [{ phone: "98765" }, "phone", /10 digits/],
      [{ phone: "98765abcde" }, "phone", /10 digits/],
      [{ email: "not-an-email" }, "email", /valid email/],
      [{ email: `${"a".repeat(250)}@x.in` }, "email", /at most 254/],
      [{ course: "Astrology" }, "course", /Choose a course/],
      [{ message: "   " }, "message", /Message is required/],
      [{ message: "x".repeat(2001) }, "message", /at most 2,000/],
      [{ callbackTime: "midnight" }, "callbackTime", /call you back/],
      [{ message: "x".repeat(100_000) }, "message", /at most 2,000/],
    ];
    for (const [index, [change, field, message]] of cases.entries()) {
      const answer = await post({ ...person, ...change, formTime: shownEarlier() }, { ip: `192.0.2.${index}` });
      expect(answer.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(answer.data.errors?.[field]).toMatch(message);
    }
    // Not the enquiry form: refused plainly.
    const other = await outcome<{ message: string }>(() =>
      contactRoute.action({
        request: new Request(`${appUrl}/contact`, {
          method: "POST",
          headers: { origin: appUrl },
          body: new URLSearchParams({ intent: "x" }),
        }),
        params: {},
        context: {},
      } as never),
    );
    expect(other.status).toBe(400);
    expect(await enquiries()).toEqual([]);
  });

  it("shows the inbox to staff only (visitor sent to log in, learner 403), newest first, by status", async () => {
    expect((await inbox(null)).status).toBe(302);
    expect((await inbox(learner)).status).toBe(403);
    await post({ ...person, name: "First", formTime: shownEarlier() });
    await post({ ...person, name: "Second", formTime: shownEarlier() });
    const page = await inbox(staff);
    expect(page.status).toBe(200);
    expect(page.data.enquiries.map((e) => e.name)).toEqual(["Second", "First"]);
    expect((await inbox(staff, "?status=closed")).data.enquiries).toEqual([]);
    expect((await inbox(staff, "?status=nonsense")).status).toBe(400);
    // Staff intents: a visitor 401, a learner 403.
    const id = page.data.enquiries[0]!.id;
    for (const fields of <Record<string, string>[]>[
      { intent: "enquiry-status", enquiryId: id, status: "contacted" },
      { intent: "enquiry-note", enquiryId: id, note: "Called" },
      { intent: "enquiry-invite", enquiryId: id },
    ]) {
      expect((await h.act(null, "/staff/enquiries", fields)).status).toBe(401);
      expect((await h.act(learner, "/staff/enquiries", fields)).status).toBe(403);
    }
    expect((await enquiries()).every((row) => row.status === "new")).toBe(true);
  });

  it("counts new enquiries for the staff header only", async () => {
    const root = (user: Learner | null) =>
      rootLoader({
        request: new Request(`${appUrl}/dashboard`, { headers: user ? { cookie: user.cookie } : {} }),
        params: {},
        context: {},
      } as never);
    await post({ ...person, formTime: shownEarlier() });
    await post({ ...person, formTime: shownEarlier() });
    expect((await root(staff)).newEnquiries).toBe(2);
    expect((await root(learner)).newEnquiries).toBeUndefined();
    expect((await root(null)).newEnquiries).toBeUndefined();
    const [first] = await enquiries();
    await h.act(staff, "/staff/enquiries", { intent: "enquiry-status", enquiryId: first!.id, status: "closed" });
    expect((await root(staff)).newEnquiries).toBe(1);
  });

  it("audits status changes and notes, and shows who changed what on the enquiry", async () => {
    await post({ ...person, formTime: shownEarlier() });
    const [row] = await enquiries();
    const id = row!.id;
    expect(
      await h.act(staff, "/staff/enquiries", { intent: "enquiry-status", enquiryId: id, status: "contacted" }),
    ).toMatchObject({
      status: 200,
      data: { ok: true, message: "Marked Contacted." },
    });
    expect(
      (await h.act(staff, "/staff/enquiries", { intent: "enquiry-status", enquiryId: id, status: "contacted" })).status,
    ).toBe(409);
    expect(
      (await h.act(staff, "/staff/enquiries", { intent: "enquiry-status", enquiryId: id, status: "won" })).status,
    ).toBe(400);
    expect(
      (await h.act(staff, "/staff/enquiries", { intent: "enquiry-note", enquiryId: id, note: "Wants Saturdays." }))
        .status,
    ).toBe(200);
    expect(
      (await h.act(staff, "/staff/enquiries", { intent: "enquiry-note", enquiryId: id, note: "x".repeat(2001) }))
        .status,
    ).toBe(400);
    expect((await h.act(staff, "/staff/enquiries", { intent: "enquiry-note", enquiryId: id, note: "  " })).status).toBe(
      400,
    );
    expect(
      (await h.act(staff, "/staff/enquiries", { intent: "enquiry-note", enquiryId: "gone", note: "Hi" })).status,
    ).toBe(404);

    const open = await inbox(staff, `?selected=${id}`);
    expect(open.data.selected).toMatchObject({ status: "contacted" });
    expect(open.data.selected!.history.map((e) => [e.actorName, e.kind, e.status, e.note])).toEqual([
      ["Suresh", "status", "contacted", null],
      ["Suresh", "note", null, "Wants Saturdays."],
    ]);
    const audit = await handle.db
      .selectFrom("staff_audit")
      .select(["action", "actorId", "target", "detail", "targetId"])
      .orderBy("createdAt")
      .execute();
    expect(audit).toEqual([
      {
        action: "enquiry-status",
        actorId: staff.id,
        target: "Enquiry from Meera Kulkarni",
        detail: "Contacted",
        targetId: null,
      },
      {
        action: "enquiry-note",
        actorId: staff.id,
        target: "Enquiry from Meera Kulkarni",
        detail: null,
        targetId: null,
      },
    ]);
  });

  it("invites the enquirer to sign up by email through the queue; refuses without an email or when registered", async () => {
    await post({ ...person, formTime: shownEarlier() });
    await post({ ...person, name: "No Email", email: "", formTime: shownEarlier() });
    await post({ ...person, name: "Leena again", email: learner.email.toUpperCase(), formTime: shownEarlier() });
    const rows = await enquiries();
    const byName = (name: string) => rows.find((row) => row.name === name)!.id;
    const invite = (name: string) =>
      h.act(staff, "/staff/enquiries", { intent: "enquiry-invite", enquiryId: byName(name) });
    expect(await invite("Meera Kulkarni")).toMatchObject({
      status: 200,
      data: { message: "Sign-up invitation queued for meera@example.com." },
    });
    expect((await invite("No Email")).status).toBe(400);
    expect((await invite("Leena again")).status).toBe(409);
    await h.services.mailWorker.runOnce();
    const invitation = smtp.mails.find((mail) => mail.to.includes("meera@example.com"));
    expect(invitation?.parsed.subject).toBe("Sign up for Upskill Pune");
    expect(invitation?.parsed.text).toContain(`${appUrl}/?auth=signup`);
    expect(invitation?.parsed.text).not.toContain("9876543210");
    const audit = await handle.db.selectFrom("staff_audit").select(["action", "target"]).execute();
    expect(audit).toEqual([{ action: "enquiry-invite", target: "Enquiry from Meera Kulkarni" }]);
    const history = await handle.db.selectFrom("enquiry_event").select(["kind", "actorName"]).execute();
    expect(history).toEqual([{ kind: "invite", actorName: "Suresh" }]);
  });

  it("deletes enquiries two years after their last change, with their history", async () => {
    await post({ ...person, formTime: shownEarlier() });
    const [row] = await enquiries();
    await h.act(staff, "/staff/enquiries", { intent: "enquiry-note", enquiryId: row!.id, note: "Called" });
    expect(await purgeOldEnquiries(handle.db, new Date(Date.now() + 729 * 86_400_000))).toBe(0);
    expect(await purgeOldEnquiries(handle.db, new Date(Date.now() + 731 * 86_400_000))).toBe(1);
    expect(await enquiries()).toEqual([]);
    expect(await handle.db.selectFrom("enquiry_event").select("id").execute()).toEqual([]);
  });
});
