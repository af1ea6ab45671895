import type { KyselyPlugin } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { SettingsData } from "~/dashboard/settings-page.server";
import { saveEmailPreferences } from "~/mail/email-preferences.server";
import { MailWorker } from "~/mail/mail-queue.server";
import { readUnsubscribeToken, unsubscribeToken } from "~/mail/unsubscribe.server";
import { unsubscribe, unsubscribePage, unsubscribeMessages } from "~/mail/unsubscribe-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { headerText, startSmtp, type ReceivedMail, type TestSmtp } from "../support/smtp";
import { appUrl, createHarness, type Harness, type Learner } from "../support/test-app";
import { calendarDate } from "~/core/dates";
import { mailHandlers } from "~/platform/mail-handlers.server";

/** An instant on a given day (0 today, 1 tomorrow…) at hour:minute in the institute's zone (Asia/Kolkata, UTC+5:30). */
function instituteTime(dayOffset: number, hour: number, minute = 30): Date {
  const today = calendarDate(new Date(), "Asia/Kolkata");
  const midnightUtc = Date.parse(`${today}T00:00:00Z`) + dayOffset * 86_400_000;
  return new Date(midnightUtc + (hour * 60 + minute - 330) * 60_000);
}

describeEachDatabase("email notifications", (database) => {
  let handle: TestDatabaseHandle;
  let smtp: TestSmtp;
  let h: Harness;
  let asha: Learner;
  let ravi: Learner;
  let admin: Learner;

  beforeEach(async () => {
    handle = await database.open();
    smtp = await startSmtp();
    h = await createHarness(handle, {
      env: { SMTP_URL: smtp.url, DIGEST_HOUR: "18", SITE_NAME: "Upskill Pune" },
      mailWorker: { retryBaseMs: 1, concurrency: 3 },
    });
    asha = await h.signUp("Asha");
    ravi = await h.signUp("Ravi");
    admin = await h.signUp("Anita");
    await h.setRole(admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await smtp.close();
    await handle.dispose();
  });

  const worker = () => h.services.mailWorker;
  const send = async (learnerId: string, kind: string, html: string) => {
    const sent = await h.act(admin, "/staff", { intent: "send", learnerId, kind, html });
    expect(sent.status, sent.data.message).toBe(200);
  };
  const setPreferences = async (learner: Learner, choices: Record<string, string>) =>
    h.act(learner, "/settings", {
      intent: "save-email-preferences",
      notice: "immediate",
      task: "immediate",
      certificate: "immediate",
      document: "immediate",
      ...choices,
    });
  const mailsTo = (learner: Learner) => smtp.mails.filter((mail) => mail.to.includes(learner.email));
  const jobs = () => handle.db.selectFrom("mail_job").selectAll().orderBy("createdAt").execute();
  const unsubscribeLink = (mail: ReceivedMail) => {
    const header = headerText(mail, "List-Unsubscribe");
    expect(header).toMatch(/^<http:\/\/localhost:3999\/unsubscribe\?token=[A-Za-z0-9_.-]+>$/);
    return header.slice(1, -1);
  };
  const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

  it("emails a sent task at once: subject, both parts, the dashboard link and one-click unsubscribe headers", async () => {
    await send(asha.id, "task", "<p>Build a <strong>to-do app</strong>.</p><ul><li>React</li><li>Tests</li></ul>");
    expect(await jobs()).toMatchObject([{ kind: "task", learnerId: asha.id, status: "pending" }]);
    await worker().runOnce();

    const [mail] = mailsTo(asha);
    expect(mailsTo(asha)).toHaveLength(1);
    expect(mail!.parsed.subject).toBe("New task from Upskill Pune");
    expect(mail!.parsed.html).toContain("<strong>to-do app</strong>");
    expect(mail!.parsed.text).toContain("Build a to-do app.");
    expect(mail!.parsed.text).toContain("• React");
    expect(mail!.parsed.text).toContain(`${appUrl}/dashboard?show=tasks`);
    // Reads right whatever the site is called.
    expect(mail!.parsed.text).toContain("You get this email because you have an account on Upskill Pune.");
    expect(headerText(mail!, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(readUnsubscribeToken(h.services.unsubscribeKey, tokenOf(unsubscribeLink(mail!)))).toEqual({
      status: "valid",
      learnerId: asha.id,
      kinds: ["task"],
    });
    expect(mailsTo(ravi)).toHaveLength(0);
    expect(await jobs()).toMatchObject([{ status: "sent", attempts: 1 }]);

    // Delivered once: another round sends nothing again.
    await worker().runOnce();
    expect(smtp.mails).toHaveLength(1);
    // A sent email's record goes after 7 days.
    await worker().runOnce(new Date(Date.now() + 8 * 86_400_000));
    expect(await jobs()).toEqual([]);
  });

  it("queues a bulk send's emails with the send and delivers them all, a few at a time", async () => {
    const more = [];
    for (let i = 0; i < 12; i++) more.push(await h.signUp(`Learner${i}`));
    const sent = await h.act(admin, "/staff", {
      intent: "bulk-send",
      kind: "notice",
      html: "Holiday on Monday.",
      search: "",
      course: "",
      expectedCount: "14",
    });
    expect(sent.status, sent.data.message).toBe(200);
    expect((await jobs()).filter((job) => job.status === "pending")).toHaveLength(14);
    await worker().runOnce();
    expect(smtp.mails).toHaveLength(14);
    expect(new Set(smtp.mails.map((mail) => mail.to[0])).size).toBe(14);
    // A notice's subject says what it is about.
    expect(smtp.mails.every((mail) => mail.parsed.subject === "Notice: Holiday on Monday.")).toBe(true);
  });

  it("retries a temporary refusal with a growing wait, fails a permanent one at once, and the send itself succeeds", async () => {
    smtp.refuseNext(2, 451);
    await send(asha.id, "notice", "Retry me.");
    await worker().runOnce();
    let [job] = await jobs();
    expect(job).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("451") });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await worker().runOnce();
    [job] = await jobs();
    expect(job).toMatchObject({ status: "pending", attempts: 2 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await worker().runOnce();
    [job] = await jobs();
    expect(job).toMatchObject({ status: "sent", attempts: 3 });
    expect(mailsTo(asha)).toHaveLength(1);

    smtp.refuseNext(1, 550);
    await send(ravi.id, "notice", "No such mailbox.");
    await worker().runOnce();
    const failed = (await jobs()).find((row) => row.learnerId === ravi.id)!;
    expect(failed).toMatchObject({ status: "failed", attempts: 1, lastError: expect.stringContaining("550") });
    expect(mailsTo(ravi)).toHaveLength(0);
  });

  it("keeps queued emails across a restart: another worker on the same database delivers them, each once", async () => {
    await send(asha.id, "notice", "One.");
    await send(ravi.id, "task", "Two.");
    // The instance that queued them stops before sending; two others share the queue.
    const deps = (h.services.mailWorker as unknown as { deps: ConstructorParameters<typeof MailWorker>[0] }).deps;
    const first = new MailWorker(deps, { concurrency: 1 });
    const second = new MailWorker(deps, { concurrency: 1 });
    await Promise.all([first.runOnce(), second.runOnce()]);
    expect(smtp.mails.map((mail) => mail.to[0]).sort()).toEqual([asha.email, ravi.email]);
    expect((await jobs()).map((job) => job.status)).toEqual(["sent", "sent"]);
  });

  it("follows each learner's choice per kind: off sends nothing, a digest waits for the digest hour", async () => {
    expect((await setPreferences(asha, { task: "off", notice: "digest" })).status).toBe(200);
    const page = await h.load<SettingsData>(asha, "/settings");
    expect(page.data.settings.emailPreferences).toEqual({
      notice: "digest",
      task: "off",
      certificate: "immediate",
      document: "immediate",
    });
    expect((await h.load<SettingsData>(ravi, "/settings")).data.settings.emailPreferences.task).toBe("immediate");

    await send(asha.id, "task", "No email for this.");
    await send(asha.id, "notice", "<p>First notice</p>");
    await send(asha.id, "notice", "<p>Second notice</p>");
    await send(asha.id, "certificate", "<p>Certified</p>");
    expect((await jobs()).map((job) => job.kind)).toEqual(["certificate"]);

    // Tomorrow before the digest hour: only the certificate.
    await worker().runOnce(instituteTime(1, 17));
    expect(mailsTo(asha).map((mail) => mail.parsed.subject)).toEqual(["New certificate from Upskill Pune"]);

    // After it: one digest with both notices, oldest first, unsubscribing from the notices only.
    await worker().runOnce(instituteTime(1, 18));
    const digest = mailsTo(asha)[1]!;
    expect(digest.parsed.subject).toBe("Your daily summary from Upskill Pune: 2 new items");
    expect(digest.parsed.text!.indexOf("First notice")).toBeLessThan(digest.parsed.text!.indexOf("Second notice"));
    expect(digest.parsed.text).not.toContain("No email for this.");
    expect(readUnsubscribeToken(h.services.unsubscribeKey, tokenOf(unsubscribeLink(digest)))).toMatchObject({
      kinds: ["notice"],
    });

    // One a day: a later round the same day sends no second digest, even with something new.
    await send(asha.id, "notice", "<p>Third notice</p>");
    // As if it came at 21:00 that day (the rounds above ran at made-up times ahead of the clock).
    await handle.db
      .updateTable("message")
      .set({ sentAt: instituteTime(1, 21).toISOString() })
      .where("body", "=", "<p>Third notice</p>")
      .execute();
    await worker().runOnce(instituteTime(1, 22));
    expect(mailsTo(asha)).toHaveLength(2);
    // The next day's digest lists what came after the last one.
    await worker().runOnce(instituteTime(2, 19));
    const next = mailsTo(asha)[2]!;
    expect(next.parsed.subject).toBe("Your daily summary from Upskill Pune: 1 new item");
    expect(next.parsed.text).toContain("Third notice");
    expect(next.parsed.text).not.toContain("First notice");
  });

  it("keeps the digest to its hour: an item after it waits for the next day's digest, one before it goes that day", async () => {
    expect((await setPreferences(asha, { notice: "digest" })).status).toBe(200);
    expect((await setPreferences(ravi, { notice: "digest" })).status).toBe(200);
    // Sent now, then stamped with a made-up time tomorrow (the rounds below run ahead of the clock).
    const sendAt = async (learner: Learner, body: string, at: Date) => {
      await send(learner.id, "notice", body);
      await handle.db.updateTable("message").set({ sentAt: at.toISOString() }).where("body", "=", body).execute();
    };
    const subjectsTo = (learner: Learner) => mailsTo(learner).map((mail) => mail.parsed.subject);

    await sendAt(asha, "<p>Afternoon notice</p>", instituteTime(1, 17, 0));
    await worker().runOnce(instituteTime(1, 17, 59));
    expect(subjectsTo(asha)).toEqual([]);
    // Just after the hour: that day's digest holds the 17:00 item; Ravi has nothing, so no mail.
    await worker().runOnce(instituteTime(1, 18, 0.2));
    expect(subjectsTo(asha)).toEqual(["Your daily summary from Upskill Pune: 1 new item"]);
    expect(mailsTo(asha)[0]!.parsed.text).toContain("Afternoon notice");
    expect(subjectsTo(ravi)).toEqual([]);

    // 18:30 items: Ravi had no digest that day, Asha had one; neither is mailed that evening.
    await sendAt(ravi, "<p>Evening notice</p>", instituteTime(1, 18, 30));
    await sendAt(asha, "<p>Late notice</p>", instituteTime(1, 18, 30));
    for (const [hour, minute] of [
      [18, 31],
      [21, 0],
      [23, 59],
    ] as const) {
      await worker().runOnce(instituteTime(1, hour, minute));
    }
    // The next day before the hour: still nothing.
    await worker().runOnce(instituteTime(2, 17, 59));
    expect(subjectsTo(ravi)).toEqual([]);
    expect(mailsTo(asha)).toHaveLength(1);

    // At the next day's hour: one digest each, with the 18:30 item and not the one already sent.
    await worker().runOnce(instituteTime(2, 18, 0.2));
    await worker().runOnce(instituteTime(2, 20, 0));
    expect(subjectsTo(ravi)).toEqual(["Your daily summary from Upskill Pune: 1 new item"]);
    expect(mailsTo(ravi)[0]!.parsed.text).toContain("Evening notice");
    expect(mailsTo(asha)).toHaveLength(2);
    expect(mailsTo(asha)[1]!.parsed.text).toContain("Late notice");
    expect(mailsTo(asha)[1]!.parsed.text).not.toContain("Afternoon notice");
    // Nobody got two digests on one day.
    const digests = await handle.db
      .selectFrom("mail_job")
      .select(["learnerId", "key"])
      .where("kind", "=", "digest")
      .execute();
    expect(digests.map((job) => job.key).sort()).toEqual(
      [
        `digest:${asha.id}:${calendarDate(instituteTime(1, 12), "Asia/Kolkata")}`,
        `digest:${asha.id}:${calendarDate(instituteTime(2, 12), "Asia/Kolkata")}`,
        `digest:${ravi.id}:${calendarDate(instituteTime(2, 12), "Asia/Kolkata")}`,
      ].sort(),
    );
  });

  it("looks for the digests due in a few reads for the whole batch, each learner's items held against their own start", async () => {
    const onTheDigest = {
      notice: "immediate",
      task: "digest",
      certificate: "immediate",
      document: "immediate",
    } as const;
    const others = [];
    for (let i = 0; i < 8; i++) others.push(await h.signUp(`Learner${i}`));
    for (const learner of [asha, ...others])
      await saveEmailPreferences(handle.db, learner.id, onTheDigest, instituteTime(-1, 9));
    await send(asha.id, "task", "<p>Waiting for the digest</p>");
    // Ravi's task came before he put tasks on the digest: it went to him at once, not again in a digest.
    await send(ravi.id, "task", "<p>Sent at once</p>");
    await saveEmailPreferences(handle.db, ravi.id, onTheDigest, new Date(Date.now() + 60_000));

    let reads = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        if (args.node.kind === "SelectQueryNode") reads++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const { queueDue } = mailHandlers({
      db: handle.db.withPlugin(counting),
      config: h.services.config,
      storage: h.services.storage,
      unsubscribeKey: h.services.unsubscribeKey,
      invitationLink: async () => appUrl,
    });
    const digestRound = queueDue.at(-1)!;
    // On SQLite every read runs on the event loop: a request that came meanwhile is served between them.
    let served = false;
    setImmediate(() => (served = true));
    expect(await digestRound(instituteTime(1, 19)).then(() => served)).toBe(true);
    // The ten candidates, then each source of tasks once (the messages; the assignments' reminders and reviews).
    expect(reads).toBe(4);
    expect((await jobs()).filter((job) => job.kind === "digest").map((job) => job.learnerId)).toEqual([asha.id]);
  });

  it("starts a digest when a kind first goes on it, keeps that start through later saves, and clears it when none is left", async () => {
    const digestFrom = async () =>
      (
        await handle.db
          .selectFrom("email_preference")
          .select("digestFrom")
          .where("learnerId", "=", asha.id)
          .executeTakeFirstOrThrow()
      ).digestFrom;
    const immediate = {
      notice: "immediate",
      task: "immediate",
      certificate: "immediate",
      document: "immediate",
    } as const;
    /** Saves these choices on a day of November 2026, at 10:00 UTC. */
    const saveOn = (day: number, choices: Partial<Record<keyof typeof immediate, "digest">>) =>
      saveEmailPreferences(handle.db, asha.id, { ...immediate, ...choices }, new Date(`2026-11-${day}T10:00:00.000Z`));
    await saveOn(20, {});
    expect(await digestFrom()).toBeNull();
    await saveOn(21, { task: "digest" });
    expect(await digestFrom()).toBe("2026-11-21T10:00:00.000Z");
    await saveOn(22, { task: "digest", notice: "digest" });
    expect(await digestFrom()).toBe("2026-11-21T10:00:00.000Z");
    await saveOn(23, {});
    expect(await digestFrom()).toBeNull();
    await saveOn(24, { notice: "digest" });
    expect(await digestFrom()).toBe("2026-11-24T10:00:00.000Z");
  });

  it("refuses an unknown choice with a clear message and changes nothing", async () => {
    const refused = await setPreferences(asha, { task: "weekly" });
    expect(refused.status).toBe(400);
    expect(refused.data.message).toBe("Choose Immediately, Daily digest or Off.");
    expect((await h.load<SettingsData>(asha, "/settings")).data.settings.emailPreferences.task).toBe("immediate");
    expect((await h.act(null, "/settings", { intent: "save-email-preferences" })).status).toBe(401);
  });

  it("unsubscribes from one kind without signing in; the page offers Turn off all; forged and expired links do nothing", async () => {
    await send(asha.id, "task", "A task.");
    await worker().runOnce();
    const token = tokenOf(unsubscribeLink(mailsTo(asha)[0]!));
    const deps = { db: handle.db, unsubscribeKey: h.services.unsubscribeKey };

    // Opening the link changes nothing (mail scanners open links).
    expect(await unsubscribePage(deps, token)).toEqual({
      status: "valid",
      email: "a•••@example.com",
      about: "tasks",
      alreadyOff: false,
      allOff: false,
    });
    const prefs = async (learner: Learner) =>
      (await h.load<SettingsData>(learner, "/settings")).data.settings.emailPreferences;
    expect((await prefs(asha)).task).toBe("immediate");

    // RFC 8058's one-click POST: just that kind.
    expect((await unsubscribe(deps, token, "link")).status).toBe("valid");
    expect(await prefs(asha)).toEqual({
      notice: "immediate",
      task: "off",
      certificate: "immediate",
      document: "immediate",
    });
    await send(asha.id, "task", "Another task.");
    await worker().runOnce();
    expect(mailsTo(asha)).toHaveLength(1);

    // 'Turn off all' from the same link.
    const all = await unsubscribe(deps, token, "all");
    expect(all).toMatchObject({ status: "valid", allOff: true });
    expect(Object.values(await prefs(asha))).toEqual(["off", "off", "off", "off"]);
    expect(Object.values(await prefs(ravi))).toEqual(["immediate", "immediate", "immediate", "immediate"]);

    // A link can't be changed to name another learner or kind, and expires.
    const [payload, signature] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), u: ravi.id }),
    ).toString("base64url");
    expect(await unsubscribe(deps, `${forged}.${signature}`, "all")).toEqual({
      status: "invalid",
      message: unsubscribeMessages.invalid,
    });
    const old = unsubscribeToken(
      h.services.unsubscribeKey,
      ravi.id,
      ["notice"],
      new Date(Date.now() - 91 * 86_400_000),
    );
    expect(await unsubscribe(deps, old, "all")).toEqual({ status: "expired", message: unsubscribeMessages.expired });
    expect(await unsubscribe(deps, "x".repeat(5000), "all")).toMatchObject({ status: "invalid" });
    expect(Object.values(await prefs(ravi))).toEqual(["immediate", "immediate", "immediate", "immediate"]);
  });

  it("skips an email whose message was deleted before it went", async () => {
    await send(asha.id, "notice", "Oops, wrong learner.");
    const [job] = await jobs();
    await handle.db.deleteFrom("message").where("id", "=", job!.refId!).execute();
    await worker().runOnce();
    expect(smtp.mails).toHaveLength(0);
    expect((await jobs())[0]).toMatchObject({ status: "skipped", lastError: "The message was deleted." });
  });
});
