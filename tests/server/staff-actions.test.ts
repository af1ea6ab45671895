import { bulkSendSchema } from "~/staff/staff-types";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { InProcessBus } from "~/realtime/bus.server";
import { userTopic } from "~/realtime/events";
import { clearForLearner, saveOfferLetter, sendToLearner, sendToMatching } from "~/staff/staff-actions.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

// The actions' transaction: an action and its audit row land together or not at all, and
// nobody is told about an action that did not happen.

describeEachDatabase("staff actions and their audit rows", (database) => {
  let handle: TestDatabaseHandle;
  let bus: InProcessBus;
  let learnerId: string;
  let told: number;

  beforeEach(async () => {
    handle = await database.open();
    bus = new InProcessBus();
    learnerId = randomUUID();
    const now = new Date().toISOString();
    await handle.db
      .insertInto("user")
      .values({
        id: learnerId,
        name: "Leena",
        username: "Leena",
        email: "leena@example.com",
        emailVerified: false,
        image: null,
        createdAt: now,
        updatedAt: now,
        phone: "9876543210",
        course: "Python",
        gender: "female",
        role: null,
      })
      .execute();
    told = 0;
    bus.subscribe(userTopic(learnerId), () => told++);
  });
  afterEach(async () => {
    await handle.dispose();
  });

  // An actor whose id is no user: the audit row's foreign key refuses it, inside the transaction.
  const ghost = { id: "no-such-user", name: "Ghost", role: "admin" };
  const deps = () => ({ db: handle.db, bus, config: { instituteTimeZone: "Asia/Kolkata" } });

  it("rolls back a send, a bulk send, a clear and an offer letter when the audit row cannot be written", async () => {
    await expect(sendToLearner(deps(), ghost, { learnerId, kind: "notice", html: "<p>Hi</p>" })).rejects.toThrow();
    await expect(
      sendToMatching(deps(), ghost, {
        ...bulkSendSchema.parse({ kind: "task", html: "t", expectedCount: "1" }),
      }),
    ).rejects.toThrow();
    expect(await handle.db.selectFrom("message").select("id").execute()).toEqual([]);

    await handle.db
      .insertInto("message")
      .values({
        id: randomUUID(),
        learnerId,
        kind: "notice",
        body: "<p>x</p>",
        sentBy: null,
        sentAt: new Date().toISOString(),
        readAt: null,
      })
      .execute();
    await expect(clearForLearner(deps(), ghost, { learnerId, kind: "notice" })).rejects.toThrow();
    expect(await handle.db.selectFrom("message").select("id").execute()).toHaveLength(1);

    await expect(saveOfferLetter(deps(), ghost, { learnerId, html: "<p>Offer</p>" })).rejects.toThrow();
    expect(await handle.db.selectFrom("offer_letter").select("learnerId").execute()).toEqual([]);
    expect(await handle.db.selectFrom("staff_audit").select("id").execute()).toEqual([]);
    expect(told).toBe(0);
  });

  it("writes the action and its audit row together, then tells the learner once", async () => {
    const actor = { id: learnerId, name: "Leena", role: "admin" };
    const result = await sendToLearner(deps(), actor, { learnerId, kind: "notice", html: "<p>Hi</p>" });
    expect(result).toEqual({ ok: true, message: "Notice sent successfully!" });
    expect(await handle.db.selectFrom("message").select("id").execute()).toHaveLength(1);
    const audit = await handle.db.selectFrom("staff_audit").selectAll().execute();
    expect(audit).toMatchObject([
      { actorId: learnerId, action: "send", detail: "notice", targetId: learnerId, count: 1 },
    ]);
    expect(told).toBe(1);
  });
});
