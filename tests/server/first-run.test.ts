import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { staffInvitationMessages } from "~/accounts/staff-invitation-fields";
import { action as resetPasswordAction } from "~/routes/reset-password";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, testSignatory, type Harness, type Learner } from "../support/test-app";

type Checklist = { key: string; done: boolean }[] | null;

// An admin's first visits to /staff: a checklist computed from the data (staff never get it),
// gone once done or dismissed; and inviting staff by email with a role.
describeEachDatabase("first run: the checklist and staff invitations", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let admin: Learner;
  let staff: Learner;

  beforeEach(async () => {
    handle = await database.open();
    // No signatory: the checklist asks for one.
    h = await createHarness(handle, { signatory: null });
    admin = await h.signUp("Meera");
    await h.setRole(admin, "admin");
    staff = await h.signUp("Suresh");
    await h.setRole(staff, "staff");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const checklist = async (user: Learner) => (await h.load<{ firstRun: Checklist }>(user, "/staff")).data.firstRun;
  const doneKeys = (list: Checklist) => (list ?? []).filter((item) => item.done).map((item) => item.key);
  const audit = () =>
    handle.db
      .selectFrom("staff_audit")
      .select(["action", "actorName", "detail", "target"])
      .where("action", "in", ["invite-staff", "dismiss-first-run"])
      .orderBy("createdAt")
      .execute();
  const invite = (user: Learner, fields: Record<string, string>) =>
    h.act(user, "/staff/people", { intent: "invite-staff", ...fields });

  it("shows admins the six items, ticked from the data; staff get none", async () => {
    const first = await checklist(admin);
    expect(first?.map((item) => item.key)).toEqual(["brand", "signatory", "courses", "feeTerms", "proof", "staff"]);
    // A staff member already has a role; the spec's catalogue shows courses sign-up does not offer.
    expect(doneKeys(first)).toEqual(["staff"]);
    expect(await checklist(staff)).toBeNull();

    await handle.db
      .insertInto("document_settings")
      .values({
        id: 1,
        signatoryName: testSignatory.name,
        signatoryTitle: testSignatory.title,
        signatureKey: null,
        updatedBy: admin.id,
        updatedAt: new Date().toISOString(),
      })
      .onConflict((conflict) => conflict.column("id").doUpdateSet({ signatoryName: testSignatory.name }))
      .execute();
    expect(doneKeys(await checklist(admin))).toEqual(["signatory", "staff"]);

    const offered = (await handle.db.selectFrom("signup_course_option").select("label").execute()).map((o) => o.label);
    const shown = await handle.db.selectFrom("course").select("title").where("shown", "=", 1).execute();
    const missing = shown.map((course) => course.title).filter((title) => !offered.includes(title));
    expect(missing.length).toBeGreaterThan(0);
    await handle.db
      .insertInto("signup_course_option")
      .values(missing.map((label, i) => ({ label, position: 100 + i })))
      .execute();
    expect(doneKeys(await checklist(admin))).toEqual(["signatory", "courses", "staff"]);

    const now = new Date().toISOString();
    await handle.db
      .insertInto("fee_terms")
      .values({
        id: "terms-1",
        name: "PAP 2027",
        ctcThresholdPaise: 300_000_00,
        feeKind: "percent",
        feeAmountPaise: null,
        feeBasisPoints: 1500,
        capPaise: 200_000_00,
        instalments: 1,
        placementWindowMonths: 12,
        gstBasisPoints: 1800,
        pauseRule: "",
        createdBy: admin.id,
        createdAt: now,
      })
      .execute();
    // Terms that no course carries are not yet what a visitor sees.
    expect(doneKeys(await checklist(admin))).toEqual(["signatory", "courses", "staff"]);
    await handle.db.updateTable("course").set({ termsId: "terms-1" }).where("shown", "=", 1).execute();
    await handle.db
      .insertInto("testimonial")
      .values({
        id: "t-1",
        name: "Asha",
        course: "Python",
        quote: "Good.",
        photo: null,
        consentAt: null,
        consentNote: "",
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await handle.db
      .insertInto("hiring_partner")
      .values({ id: "p-1", name: "Acme", logo: "", createdAt: now })
      .execute();
    // A testimonial without the learner's consent is not shown: not done yet.
    expect(doneKeys(await checklist(admin))).toEqual(["signatory", "courses", "feeTerms", "staff"]);
    await handle.db.updateTable("testimonial").set({ consentAt: now }).execute();
    expect(doneKeys(await checklist(admin))).toEqual(["signatory", "courses", "feeTerms", "proof", "staff"]);
    // The brand the first start stored is nobody's choice; one an admin published is.
    await handle.db
      .insertInto("site_section")
      .values({ key: "brand", draft: null, published: "{}", draftAt: null, publishedAt: now, updatedBy: null })
      .onConflict((conflict) => conflict.column("key").doUpdateSet({ updatedBy: null }))
      .execute();
    expect(doneKeys(await checklist(admin))).not.toContain("brand");
    await handle.db.updateTable("site_section").set({ updatedBy: admin.id }).where("key", "=", "brand").execute();
    // All done: gone, and recorded, so later visits do not compute it.
    expect(await checklist(admin)).toBeNull();
    expect(await handle.db.selectFrom("first_run").select("completedAt").executeTakeFirst()).toMatchObject({
      completedAt: expect.any(String),
    });
    await handle.db.deleteFrom("hiring_partner").execute();
    expect(await checklist(admin)).toBeNull();
  });

  it("is hidden for every admin once one dismisses it (audited); staff may not", async () => {
    const second = await h.signUp("Kavya");
    await h.setRole(second, "admin");
    expect((await h.act(staff, "/staff", { intent: "dismiss-first-run" })).status).toBe(403);
    expect(await checklist(admin)).not.toBeNull();
    expect(await h.act(second, "/staff", { intent: "dismiss-first-run" })).toMatchObject({ status: 200 });
    expect(await checklist(admin)).toBeNull();
    expect(await checklist(second)).toBeNull();
    expect(await audit()).toEqual([{ action: "dismiss-first-run", actorName: "Kavya", detail: null, target: "" }]);
  });

  it("an admin invites a trainer by email: an account with that role, one mail, an audit row; the invitee sets a password and lands on /staff", async () => {
    const answer = await invite(admin, { name: "Anil Rao", email: "  Anil@Example.com ", role: "trainer" });
    expect(answer).toMatchObject({
      status: 200,
      data: { ok: true, message: staffInvitationMessages.sent("anil@example.com", "trainer") },
    });
    const row = await handle.db
      .selectFrom("user")
      .select(["id", "name", "role"])
      .where("email", "=", "anil@example.com")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Anil Rao", role: "trainer" });
    expect(await audit()).toEqual([
      { action: "invite-staff", actorName: "Meera", detail: "trainer", target: "Anil Rao <anil@example.com>" },
    ]);

    await h.services.mailWorker.runOnce();
    const outbox = path.join(h.dataDir, "outbox");
    const mails = fs.readdirSync(outbox).map((name) =>
      fs
        .readFileSync(path.join(outbox, name), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    );
    const mail = mails.find((text) => text.includes("To: anil@example.com"));
    expect(mail).toBeDefined();
    const token = /\/reset-password\?token=([A-Za-z0-9_-]+)&invite=1/.exec(mail!)?.[1];
    expect(token).toBeDefined();

    // The reset page's form, sent as the browser sends it.
    const request = new Request(`${appUrl}/reset-password?token=${token}&invite=1`, {
      method: "POST",
      headers: { origin: appUrl, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: token!,
        invite: "1",
        password: "trainer-pass-1",
        confirmPassword: "trainer-pass-1",
      }),
    });
    const thrown = await resetPasswordAction({ request, params: {}, context: {} } as never).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    // To / with the signed-in mark, which sends staff on to /staff.
    expect(response.headers.get("location")).toBe("/?signed-in");
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).not.toBe("");
    const anil = { id: row.id, email: "anil@example.com", username: "", cookie };
    const workspace = await h.load<{ user: { level: string }; firstRun: Checklist }>(anil, "/staff");
    expect(workspace.status).toBe(200);
    expect(workspace.data.user.level).toBe("staff");
    expect(workspace.data.firstRun).toBeNull();
  });

  it("refuses an email that has an account, changing nothing; a staff member cannot invite; bad fields are 400", async () => {
    const learner = await h.signUp("Asha");
    const refused = await invite(admin, { name: "Asha", email: learner.email.toUpperCase(), role: "admin" });
    expect(refused).toMatchObject({
      status: 409,
      data: { message: staffInvitationMessages.exists(learner.email, null) },
    });
    const asha = await handle.db
      .selectFrom("user")
      .select(["role", "name"])
      .where("id", "=", learner.id)
      .executeTakeFirstOrThrow();
    expect(asha.role).toBeNull();
    expect((await invite(admin, { name: "S", email: staff.email, role: "trainer" })).data.message).toBe(
      staffInvitationMessages.exists(staff.email, "staff"),
    );

    expect((await invite(staff, { name: "Bob", email: "bob@example.com", role: "trainer" })).status).toBe(403);
    expect((await invite(admin, { name: "Bob", email: "not-an-email", role: "trainer" })).status).toBe(400);
    expect((await invite(admin, { name: "Bob", email: "bob@example.com", role: "owner" })).status).toBe(400);
    expect((await invite(admin, { name: "x".repeat(101), email: "bob@example.com", role: "staff" })).status).toBe(400);
    expect(await handle.db.selectFrom("user").select("id").where("email", "=", "bob@example.com").execute()).toEqual(
      [],
    );
    expect(await audit()).toEqual([]);
    const queued = await handle.db.selectFrom("mail_job").select("kind").where("kind", "=", "invitation").execute();
    expect(queued).toEqual([]);
  });

  it("limits how many invitations an admin sends in an hour", async () => {
    let last = 0;
    for (let i = 0; i < 21; i++) {
      last = (await invite(admin, { name: `P${i}`, email: `p${i}@example.com`, role: "staff" })).status;
    }
    expect(last).toBe(429);
  });
});
