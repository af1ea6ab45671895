import { afterEach, beforeEach, expect, it } from "vitest";
import { getSessionUser, sessionReadWithStamp } from "~/accounts/permissions.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, type Harness, type Learner } from "../support/test-app";

describeEachDatabase("reading the session cookie", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let learner: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    learner = await h.signUp("Leena");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const as = (cookie: string) => getSessionUser(new Request(`${appUrl}/dashboard`, { headers: { cookie } }));
  const expiresAt = async () =>
    new Date(
      (
        await handle.db
          .selectFrom("session")
          .select("expiresAt")
          .where("userId", "=", learner.id)
          .executeTakeFirstOrThrow()
      ).expiresAt,
    ).getTime();

  it("knows the learner by a validly signed cookie, among other cookies, and agrees with better-auth", async () => {
    const user = await as(`theme=dark; ${learner.cookie}; other="x"`);
    expect(user).toMatchObject({
      id: learner.id,
      username: "Leena",
      email: "leena@example.com",
      role: null,
      level: "learner",
    });
    const theirs = await h.auth.api.getSession({ headers: new Headers({ cookie: learner.cookie }) });
    expect(user?.sessionId).toBe(theirs?.session.id);
    expect(user?.createdAt).toBe(new Date(theirs!.user.createdAt).toISOString());
    // The dashboard's phone and course come with the session.
    expect([user?.profile.phone, user?.profile.course]).toEqual([theirs!.user.phone, theirs!.user.course]);
    expect(user?.profile.phone).toMatch(/^\d{10}$/);
    await h.setRole(learner, "admin");
    expect((await as(learner.cookie))?.level).toBe("admin");
  });

  it("refuses a forged, truncated or re-signed cookie", async () => {
    const [name, value] = learner.cookie.split("=") as [string, string];
    const decoded = decodeURIComponent(value);
    const token = decoded.slice(0, decoded.lastIndexOf("."));
    const signature = decoded.slice(decoded.lastIndexOf(".") + 1);
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    for (const forged of [
      `${name}=${encodeURIComponent(`${token}.${flipped}`)}`,
      `${name}=${encodeURIComponent(token)}`,
      `${name}=${encodeURIComponent(`${token}x.${signature}`)}`,
      `${name}=${encodeURIComponent(`.${signature}`)}`,
      `${name}=%E0%A4%A`,
      `${name}=`,
    ]) {
      expect(await as(forged), forged).toBeNull();
    }
  });

  it("ends with the session: expired, or deleted", async () => {
    expect(await as(learner.cookie)).not.toBeNull();
    await handle.db
      .updateTable("session")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("userId", "=", learner.id)
      .execute();
    expect(await as(learner.cookie)).toBeNull();

    const second = await h.signUp("Omkar");
    await handle.db.deleteFrom("session").where("userId", "=", second.id).execute();
    expect(await as(second.cookie)).toBeNull();
  });

  it("on PostgreSQL comes with the kept-answer stamp, so a page's render reads it no more", async () => {
    const decoded = decodeURIComponent(learner.cookie.split("=")[1]!);
    const { session } = await handle.keptAnswerStamp(decoded.slice(0, decoded.lastIndexOf(".")));
    if (handle.dialect === "sqlite") {
      // A read there is a function call: the gate makes its own.
      expect(session).toBeUndefined();
      return;
    }
    const request = new Request(`${appUrl}/dashboard`, { headers: { cookie: learner.cookie } });
    sessionReadWithStamp(request, session!);
    // Gone since the stamp was read: a request of its own finds no session, the render of the
    // stamp's request the one the stamp saw, as the gate's own read would have made it.
    const asRead = await as(learner.cookie);
    await handle.db.deleteFrom("session").where("userId", "=", learner.id).execute();
    expect(await as(learner.cookie)).toBeNull();
    expect(await getSessionUser(request)).toEqual(asRead);
  });

  it("lets better-auth extend a session that is due, as its own lookup would", async () => {
    const oneHour = 60 * 60_000;
    await handle.db
      .updateTable("session")
      .set({ expiresAt: new Date(Date.now() + oneHour).toISOString() })
      .where("userId", "=", learner.id)
      .execute();
    expect((await as(learner.cookie))?.id).toBe(learner.id);
    // Extended to a full lifetime again (7 days by default), not left to run out.
    expect(await expiresAt()).toBeGreaterThan(Date.now() + 6 * 24 * oneHour);
  });
});
