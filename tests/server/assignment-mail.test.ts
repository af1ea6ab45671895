import { afterEach, beforeEach, expect, it } from "vitest";
import { calendarDate, formatDateTime } from "~/core/dates";
import { defaultEmailPreferences, type EmailMode } from "~/mail/email-kinds";
import { readEmailPreferences, saveEmailPreferences } from "~/mail/email-preferences.server";
import { MailWorker } from "~/mail/mail-queue.server";
import { readUnsubscribeToken } from "~/mail/unsubscribe.server";
import { unsubscribe } from "~/mail/unsubscribe-page.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { headerText, startSmtp, type ReceivedMail, type TestSmtp } from "../support/smtp";
import { appUrl, createHarness, type Harness, type Learner } from "../support/test-app";

// An assignment's emails through the real queue and SMTP: the reminder a day before the due date
// (with the clock moved, not waited for) and the trainer's review, each as the learner chose for
// tasks, with one-click unsubscribe; and the digest keeping to its hour for both.

const zone = "Asia/Kolkata";
const hourMs = 3_600_000;

/** An instant on a given day (0 today, 1 tomorrow…) at hour:minute in the institute's zone (UTC+5:30). */
function instituteTime(dayOffset: number, hour: number, minute = 30): Date {
  const today = calendarDate(new Date(), zone);
  const midnightUtc = Date.parse(`${today}T00:00:00Z`) + dayOffset * 86_400_000;
  return new Date(midnightUtc + (hour * 60 + minute - 330) * 60_000);
}

describeEachDatabase("assignment emails: reminders and reviews", (database) => {
  let handle: TestDatabaseHandle;
  let smtp: TestSmtp;
  let h: Harness;
  let leena: Learner;
  let omar: Learner;
  let ravi: Learner;
  let sita: Learner;
  let trainer: Learner;
  let batchId: string;

  const ok = async (who: Learner, address: string, fields: Record<string, string>) => {
    const answer = await h.act(who, address, fields);
    expect(answer.data, `${fields.intent}`).toMatchObject({ ok: true });
    return answer.data as { ok: true; message: string } & Record<string, unknown>;
  };
  const choose = (learner: Learner, task: EmailMode) =>
    saveEmailPreferences(handle.db, learner.id, { ...defaultEmailPreferences, task });

  beforeEach(async () => {
    handle = await database.open();
    smtp = await startSmtp();
    h = await createHarness(handle, {
      env: { SMTP_URL: smtp.url, DIGEST_HOUR: "18", INSTITUTE_TZ: zone, SITE_NAME: "Upskill Pune" },
      mailWorker: { retryBaseMs: 1, concurrency: 2 },
    });
    [leena, omar, ravi, sita, trainer] = [
      await h.signUp("Leena"),
      await h.signUp("Omar"),
      await h.signUp("Ravi"),
      await h.signUp("Sita"),
      await h.signUp("Tara"),
    ];
    await h.setRole(trainer, "staff");
    const inDays = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), zone);
    await ok(trainer, "/staff/batches", {
      intent: "create-batch",
      name: "Python – Oct 2026",
      courseSlug: "python",
      schedule: "Mon–Fri 6–8 pm",
      startDate: inDays(-10),
      endDate: inDays(100),
      payment: "upfront",
    });
    batchId = (await handle.db.selectFrom("batch").select("id").executeTakeFirstOrThrow()).id;
    await ok(trainer, "/staff/batches", {
      intent: "enrol-learners",
      batchId,
      learnerIds: [leena, omar, ravi, sita].map((one) => one.id).join(","),
    });
  });
  afterEach(async () => {
    await h.dispose();
    await smtp.close();
    await handle.dispose();
  });

  const worker = () => h.services.mailWorker;
  /** Set for the batch, due at 18:00 in the institute's zone on day `dueDay`; its id and due instant. */
  const createAssignment = async (dueDay = 7) => {
    const created = await ok(trainer, "/staff/batches", {
      intent: "create-assignment",
      batchId,
      title: "Build a calculator",
      instructions: "Hand in the repository link.",
      dueDate: calendarDate(instituteTime(dueDay, 12), zone),
      dueTime: "18:00",
      handIn: "link",
      points: "10",
    });
    const id = created.assignmentId as string;
    const { dueAt } = await handle.db
      .selectFrom("assignment")
      .select("dueAt")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(dueAt).toBe(instituteTime(dueDay, 18, 0).toISOString());
    return { id, due: Date.parse(dueAt) };
  };
  const at = (instant: number) => new Date(instant);
  const mailsTo = (learner: Learner, subject: RegExp) =>
    smtp.mails.filter((mail) => mail.to.includes(learner.email) && subject.test(mail.parsed.subject ?? ""));
  const reminders = (learner: Learner) => mailsTo(learner, /^Reminder:/);
  const digests = (learner: Learner) => mailsTo(learner, /^Your daily summary/);
  const unsubscribeToken = (mail: ReceivedMail) => {
    expect(headerText(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const header = headerText(mail, "List-Unsubscribe");
    expect(header).toMatch(/^<http:\/\/localhost:3999\/unsubscribe\?token=[A-Za-z0-9_.-]+>$/);
    return new URL(header.slice(1, -1)).searchParams.get("token")!;
  };
  const reminderJobs = () =>
    handle.db
      .selectFrom("mail_job")
      .select(["key", "learnerId", "status", "lastError"])
      .where("kind", "=", "assignment-reminder")
      .orderBy("key")
      .execute();
  const submit = (learner: Learner, assignmentId: string) =>
    ok(learner, "/dashboard", { intent: "submit-assignment", assignmentId, link: "https://github.com/x/calc" });

  it("reminds a day before the due date those who have not handed in, once, as each chose for tasks", async () => {
    await choose(ravi, "digest");
    await choose(sita, "off");
    const { id, due } = await createAssignment();
    await submit(omar, id);

    // 25 hours before: nothing yet.
    await worker().runOnce(at(due - 25 * hourMs));
    expect(await reminderJobs()).toEqual([]);
    expect(smtp.mails.filter((mail) => /^Reminder:/.test(mail.parsed.subject ?? ""))).toEqual([]);

    // 23 hours before: Leena at once; Omar handed in, Sita chose off; Ravi in that day's digest.
    await worker().runOnce(at(due - 23 * hourMs));
    const [mail] = reminders(leena);
    expect(reminders(leena)).toHaveLength(1);
    const dueWords = formatDateTime(new Date(due).toISOString(), zone);
    expect(mail!.parsed.subject).toBe(`Reminder: Build a calculator is due ${dueWords}`);
    expect(mail!.parsed.text).toContain(`"Build a calculator" is due ${dueWords}.`);
    expect(mail!.parsed.text).toContain("You have not handed it in yet.");
    expect(mail!.parsed.text).toContain(`${appUrl}/dashboard?show=tasks#assignment-${id}`);
    expect(readUnsubscribeToken(h.services.unsubscribeKey, unsubscribeToken(mail!))).toEqual({
      status: "valid",
      learnerId: leena.id,
      kinds: ["task"],
    });
    expect([reminders(omar), reminders(sita), reminders(ravi)]).toEqual([[], [], []]);
    expect((await reminderJobs()).map((job) => job.learnerId)).toEqual([leena.id]);
    // Due at the digest hour: the reminder counts from 18:00 the day before, in that day's digest.
    const [digest] = digests(ravi);
    expect(digests(ravi)).toHaveLength(1);
    expect(digest!.parsed.text).toContain("Reminder, ");
    expect(digest!.parsed.text).toContain(`Build a calculator is due ${dueWords}. You have not handed it in yet.`);
    expect(digests(omar)).toEqual([]);

    expect(await reminderJobs()).toMatchObject([{ status: "sent" }]);
    // Later rounds, up to the due time, send no second one.
    await worker().runOnce(at(due - 2 * hourMs));
    await worker().runOnce(at(due - 60_000));
    expect([reminders(leena).length, digests(ravi).length]).toEqual([1, 1]);

    // One-click unsubscribe from the reminder turns off tasks, and only tasks.
    expect(
      (await unsubscribe({ db: handle.db, unsubscribeKey: h.services.unsubscribeKey }, unsubscribeToken(mail!), "link"))
        .status,
    ).toBe("valid");
    expect(await readEmailPreferences(handle.db, leena.id)).toEqual({ ...defaultEmailPreferences, task: "off" });
  });

  it("sends none to a learner who hands in before it goes, and one for a due date that moves", async () => {
    const { id, due } = await createAssignment();
    // The first attempt is refused for now (4xx): the reminder waits for a retry.
    await worker().runOnce();
    smtp.refuseNext(4, 451);
    await worker().runOnce(at(due - 23 * hourMs));
    expect(reminders(leena)).toEqual([]);
    expect(reminders(omar)).toEqual([]);
    await submit(leena, id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await worker().runOnce(at(due - 22 * hourMs));
    expect(reminders(leena)).toEqual([]);
    expect(reminders(omar)).toHaveLength(1);
    expect((await reminderJobs()).find((job) => job.learnerId === leena.id)).toMatchObject({
      status: "skipped",
      lastError: "The learner handed it in before the reminder went.",
    });

    // Three days later (no screen moves a due date yet; the round only reads the column).
    const moved = due + 3 * 24 * hourMs;
    await handle.db
      .updateTable("assignment")
      .set({ dueAt: new Date(moved).toISOString() })
      .where("id", "=", id)
      .execute();
    await worker().runOnce(at(moved - 25 * hourMs));
    expect(reminders(omar)).toHaveLength(1);
    await worker().runOnce(at(moved - 23 * hourMs));
    expect(reminders(omar)).toHaveLength(2);
    expect(reminders(omar)[1]!.parsed.subject).toBe(
      `Reminder: Build a calculator is due ${formatDateTime(new Date(moved).toISOString(), zone)}`,
    );
    expect(reminders(leena)).toEqual([]);
  });

  it("makes one reminder per learner when two instances' rounds run at once", async () => {
    const { due } = await createAssignment();
    const deps = (h.services.mailWorker as unknown as { deps: ConstructorParameters<typeof MailWorker>[0] }).deps;
    const first = new MailWorker(deps, { concurrency: 1 });
    const second = new MailWorker(deps, { concurrency: 1 });
    await Promise.all([first.runOnce(at(due - 23 * hourMs)), second.runOnce(at(due - 23 * hourMs))]);
    await Promise.all([first.runOnce(at(due - 22 * hourMs)), second.runOnce(at(due - 22 * hourMs))]);
    for (const learner of [leena, omar, ravi, sita]) expect(reminders(learner)).toHaveLength(1);
    expect((await reminderJobs()).map((job) => job.status)).toEqual(["sent", "sent", "sent", "sent"]);
  });

  it("emails the trainer's review: changes with what was said, acceptance with points, unsubscribe, as chosen", async () => {
    const { id } = await createAssignment();
    await choose(sita, "off");
    for (const learner of [leena, sita]) await submit(learner, id);
    const review = (learner: Learner, fields: Record<string, string>) =>
      ok(trainer, "/staff/batches", {
        intent: "review-submission",
        assignmentId: id,
        learnerId: learner.id,
        ...fields,
      });
    const long = `Add division by zero handling. ${"Also check the rounding of long decimals. ".repeat(10)}`;
    await review(leena, { decision: "changes", comment: long });
    await review(sita, { decision: "changes", comment: "Add tests." });
    await worker().runOnce();

    const [changes] = mailsTo(leena, /^Changes requested/);
    expect(mailsTo(leena, /^Changes requested/)).toHaveLength(1);
    expect(changes!.parsed.subject).toBe("Changes requested: Build a calculator");
    expect(changes!.parsed.text).toContain('Tara asked for changes to "Build a calculator":');
    expect(changes!.parsed.text).toContain("Add division by zero handling. Also check the rounding");
    // What the trainer said, in short: not the whole comment.
    expect(changes!.parsed.text).not.toContain(long.trim());
    expect(changes!.parsed.text).toMatch(/…\n/);
    expect(changes!.parsed.text).toContain(
      `See the feedback and hand it in again: ${appUrl}/dashboard?show=tasks#assignment-${id}`,
    );
    expect(readUnsubscribeToken(h.services.unsubscribeKey, unsubscribeToken(changes!))).toMatchObject({
      learnerId: leena.id,
      kinds: ["task"],
    });
    expect(mailsTo(sita, /Changes requested/)).toEqual([]);

    await submit(leena, id);
    await review(leena, { decision: "accept", points: "8", comment: "Well done." });
    await worker().runOnce();
    const [accepted] = mailsTo(leena, /^Accepted/);
    expect(accepted!.parsed.subject).toBe("Accepted: Build a calculator (8 of 10 points)");
    expect(accepted!.parsed.text).toContain('Tara accepted "Build a calculator" with 8 of 10 points:');
    expect(accepted!.parsed.text).toContain("Well done.");

    // One-click unsubscribe from a review's email: no more task emails of any kind.
    const token = unsubscribeToken(accepted!);
    expect(
      (await unsubscribe({ db: handle.db, unsubscribeKey: h.services.unsubscribeKey }, token, "link")).status,
    ).toBe("valid");
    expect((await readEmailPreferences(handle.db, leena.id)).task).toBe("off");
    await submit(omar, id);
    await review(omar, { decision: "accept", points: "10" });
    await ok(leena, "/dashboard", { intent: "reply-assignment", assignmentId: id, body: "Thanks!" });
    await worker().runOnce();
    expect(mailsTo(leena, /^(Accepted|Changes)/)).toHaveLength(2);
    // Accepted without a comment: said plainly, from "Your trainer".
    expect(mailsTo(omar, /^Accepted/).map((mail) => mail.parsed.text?.split("\n")[2])).toEqual([
      'Your trainer accepted "Build a calculator" with 10 of 10 points.',
    ]);
  });

  it("keeps the digest to its hour for reviews: one after the hour waits for the next day's digest", async () => {
    const { id } = await createAssignment();
    await choose(ravi, "digest");
    await submit(ravi, id);
    await ok(trainer, "/staff/batches", {
      intent: "review-submission",
      assignmentId: id,
      learnerId: ravi.id,
      decision: "changes",
      comment: "Add a README.",
    });
    // As if reviewed at 18:30 tomorrow, after the digest hour (the rounds run ahead of the clock).
    // The task itself was emailed at once: Ravi put tasks on the digest after it was set.
    const reviewedAt = instituteTime(1, 18, 30).toISOString();
    await handle.db.updateTable("learner_assignment").set({ reviewedAt }).where("learnerId", "=", ravi.id).execute();
    await handle.db
      .updateTable("assignment_comment")
      .set({ createdAt: reviewedAt })
      .where("learnerId", "=", ravi.id)
      .execute();
    // Ravi had no digest that day (nothing came before the hour): the review is not mailed that
    // evening, nor the next day before the hour.
    for (const [day, hour, minute] of [
      [1, 18, 0.2],
      [1, 18, 31],
      [1, 21, 0],
      [1, 23, 59],
      [2, 17, 59],
    ] as const) {
      await worker().runOnce(instituteTime(day, hour, minute));
    }
    expect(digests(ravi)).toEqual([]);
    expect(mailsTo(ravi, /^Changes requested/)).toEqual([]);

    // The next day's digest, at the hour, has it.
    await worker().runOnce(instituteTime(2, 18, 0.2));
    await worker().runOnce(instituteTime(2, 21, 0));
    expect(digests(ravi)).toHaveLength(1);
    expect(digests(ravi)[0]!.parsed.subject).toBe("Your daily summary from Upskill Pune: 1 new item");
    expect(digests(ravi)[0]!.parsed.text).toContain('Tara asked for changes to "Build a calculator":');
    expect(digests(ravi)[0]!.parsed.text).toContain("Add a README.");
  });
});
