import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import yauzl from "yauzl";
import { handleAuthRequest } from "~/accounts/auth-handler.server";
import type { DashboardData } from "~/dashboard/dashboard-page.server";
import { deletionMessages } from "~/learners/account-deletion";
import { eraseDueAccounts } from "~/learners/account-deletion.server";
import * as myData from "~/routes/api.my-data";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, type Harness, type Learner } from "../support/test-app";
import { minimalPdf } from "../support/minimal-pdf";

/** Every file in a ZIP, by name. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return files;
}

describeEachDatabase("data rights: download my data, delete my account", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let asha: Learner;
  let ravi: Learner;
  let admin: Learner;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    asha = await h.signUp("Asha");
    ravi = await h.signUp("Ravi");
    admin = await h.signUp("Anita");
    await h.setRole(admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const send = async (learnerId: string, kind: string, html: string) => {
    const sent = await h.act(admin, "/staff", { intent: "send", learnerId, kind, html });
    expect(sent.status, sent.data.message).toBe(200);
  };
  const download = (learner: Learner | null) =>
    myData.loader({
      request: new Request(`${appUrl}/api/my-data`, { headers: learner ? { cookie: learner.cookie } : {} }),
      params: {},
      context: {},
    } as never);
  /** Gives the learner a resume and a photo as the upload routes leave them. */
  const giveFiles = async (learner: Learner) => {
    const resumeKey = `resumes/${learner.id.toLowerCase().replace(/[^a-z0-9]/g, "")}`;
    await h.storage.put(`${resumeKey}.pdf`, Buffer.from("%PDF-1.4 Asha's resume"));
    await handle.db
      .insertInto("resume")
      .values({
        learnerId: learner.id,
        storageKey: `${resumeKey}.pdf`,
        fileName: `${learner.username} CV.PDF`,
        size: 22,
        contentType: "application/pdf",
        uploadedAt: new Date().toISOString(),
      })
      .execute();
    await h.storage.put(`photos/${resumeKey}.webp`, Buffer.from("RIFF....WEBP"));
    await handle.db
      .insertInto("profile_photo")
      .values({ learnerId: learner.id, storageKey: `photos/${resumeKey}.webp`, updatedAt: new Date().toISOString() })
      .execute();
  };
  const signIn = async (learner: Learner) => {
    const response = await handleAuthRequest(
      h.auth,
      new Request(`${appUrl}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: appUrl, "x-upskill-client-ip": "198.51.100.200" },
        body: JSON.stringify({ email: learner.email, password: "correct-horse-1" }),
      }),
    );
    expect(response.status).toBe(200);
    return {
      ...learner,
      cookie: response.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
    };
  };

  it("gives the learner a ZIP of everything about them, their files, and a README; nobody else's", async () => {
    await giveFiles(asha);
    // More messages than one page of the export.
    const rows = Array.from({ length: 1203 }, (_, i) => ({
      id: `m-${String(i).padStart(5, "0")}`,
      learnerId: asha.id,
      kind: "notice" as const,
      body: `<p>Notice ${i}</p>`,
      sentBy: admin.id,
      sentAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      readAt: i === 0 ? new Date().toISOString() : null,
    }));
    for (let i = 0; i < rows.length; i += 400)
      await handle.db
        .insertInto("message")
        .values(rows.slice(i, i + 400))
        .execute();
    await send(asha.id, "task", "<p>Build a portfolio.</p>");
    await send(ravi.id, "task", "<p>Ravi's private task.</p>");
    expect(
      (await h.act(asha, "/dashboard", { intent: "add-task-link", link: "https://github.com/asha/app" })).status,
    ).toBe(200);

    // A job application with its offer letter.
    await h.act(asha, "/placement", { intent: "add-application", company: "Acme", role: "Developer", source: "own" });
    const [application] = await handle.db.selectFrom("job_application").select("id").execute();
    const offer = new FormData();
    for (const [name, value] of Object.entries({
      intent: "record-offer",
      applicationId: application!.id,
      fixedCtc: "6,00,000",
      location: "Pune",
      offerDate: "2026-01-05",
      joiningDate: "2026-02-01",
    })) {
      offer.set(name, value);
    }
    offer.set("offerLetter", new Blob([new Uint8Array(minimalPdf("Asha's offer"))]), "offer.pdf");
    expect((await h.act(asha, "/placement", offer)).status).toBe(200);

    const response = await download(asha);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Upskill-data-Asha-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = await unzip(Buffer.from(await response.arrayBuffer()));
    expect([...files.keys()].sort()).toEqual([
      "README.txt",
      "data.json",
      `files/offers/${application!.id}.pdf`,
      "files/photo.webp",
      "files/resume.pdf",
    ]);
    expect(files.get(`files/offers/${application!.id}.pdf`)).toEqual(minimalPdf("Asha's offer"));
    expect(files.get("files/resume.pdf")!.toString()).toBe("%PDF-1.4 Asha's resume");
    expect(files.get("README.txt")!.toString()).toContain("staffActionsAboutYou");

    const data = JSON.parse(files.get("data.json")!.toString());
    expect(data.profile).toMatchObject({ id: asha.id, username: "Asha", email: asha.email, phone: "9876543210" });
    expect(data.messages).toHaveLength(1204);
    expect(data.messages[0]).toMatchObject({ kind: "notice", html: "<p>Notice 0</p>", sentBy: "Anita" });
    expect(data.messages[0].readAt).not.toBeNull();
    expect(data.messages.at(-1)).toMatchObject({ kind: "task", html: "<p>Build a portfolio.</p>", readAt: null });
    expect(data.placement.applications[0]).toMatchObject({
      company: "Acme",
      stage: "offered",
      offer: { fixedCtcPaise: 60_000_000, status: "pending", fileName: "offer.pdf" },
    });
    expect(data.taskLinks).toEqual([{ link: "https://github.com/asha/app", createdAt: expect.any(String) }]);
    expect(data.resume).toMatchObject({ fileName: "Asha CV.PDF", file: "files/resume.pdf" });
    expect(data.staffActionsAboutYou).toEqual([expect.objectContaining({ action: "send", actorName: "Anita" })]);
    expect(data.signInSessions).toHaveLength(1);
    expect(data.signInSessions[0]).not.toHaveProperty("token");
    const text = files.get("data.json")!.toString();
    expect(text).not.toContain("Ravi's private task");
    expect(text).not.toContain(asha.cookie.split("=")[1]!.split(".")[0]!);
    expect(text).not.toContain("storageKey");

    expect((await download(null)).status).toBe(401);
    // A few an hour.
    for (let i = 0; i < 4; i++) {
      const again = await download(asha);
      expect(again.status).toBe(200);
      await again.arrayBuffer();
    }
    const limited = await download(asha);
    expect(limited.status).toBe(429);
    expect((await limited.json()).message).toMatch(/try again later/);
    const ravis = await download(ravi);
    expect(ravis.status).toBe(200);
    expect(await unzip(Buffer.from(await ravis.arrayBuffer()))).toHaveProperty("size", 2);
  });

  it("deletes an account after the password and the typed word: signed out everywhere, erased after 7 days, unless they sign in", async () => {
    const elsewhere = await signIn(asha);
    const refuse = async (fields: Record<string, string>, field: string, message: string) => {
      const answer = await h.act(asha, "/settings", { intent: "delete-account", ...fields });
      expect(answer.status).toBe(400);
      expect(answer.data).toMatchObject({ field, message });
    };
    await refuse({ password: "", confirmation: "DELETE" }, "password", deletionMessages.passwordRequired);
    await refuse(
      { password: "correct-horse-1", confirmation: "delete" },
      "confirmation",
      deletionMessages.confirmationRequired,
    );
    await refuse({ password: "wrong-horse-1", confirmation: "DELETE" }, "password", deletionMessages.wrongPassword);
    expect((await h.act(null, "/settings", { intent: "delete-account" })).status).toBe(401);

    const done = await h.act(asha, "/settings", {
      intent: "delete-account",
      password: "correct-horse-1",
      confirmation: "DELETE",
    });
    expect(done.status).toBe(200);
    // The date goes to the learner by email (the outbox without SMTP).
    await expect
      .poll(() => outbox().filter((mail) => /Subject: Your Upskill account will be deleted on/.test(mail)).length)
      .toBe(1);
    // Both sessions ended; nobody else's.
    expect((await h.load<DashboardData>(asha, "/dashboard")).status).toBe(302);
    expect((await h.load<DashboardData>(elsewhere, "/dashboard")).status).toBe(302);
    expect((await h.load<DashboardData>(ravi, "/dashboard")).status).toBe(200);
    const [scheduled] = await handle.db.selectFrom("account_deletion").selectAll().execute();
    expect(scheduled!.userId).toBe(asha.id);
    const days = (Date.parse(scheduled!.eraseAfter) - Date.parse(scheduled!.requestedAt)) / 86_400_000;
    expect(days).toBe(7);

    // Not yet due: nothing is erased.
    expect(await eraseDueAccounts(eraserDeps(), new Date(Date.now() + 6 * 86_400_000))).toBe(0);
    // Signing in during the grace period keeps the account.
    await signIn(asha);
    await expect.poll(() => outbox().filter((mail) => mail.includes("will not be deleted")).length).toBe(1);
    expect(await handle.db.selectFrom("account_deletion").selectAll().execute()).toEqual([]);
    expect(await eraseDueAccounts(eraserDeps(), new Date(Date.now() + 8 * 86_400_000))).toBe(0);
    expect(await handle.db.selectFrom("user").select("id").where("id", "=", asha.id).executeTakeFirst()).toBeTruthy();
  });

  /** The emails written to the outbox so far. */
  const outbox = () => {
    const dir = path.join(h.dataDir, "outbox");
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => fs.readFileSync(path.join(dir, name), "utf8")) : [];
  };
  const eraserDeps = () => ({
    db: handle.db,
    storage: h.storage,
    resumes: h.services.resumes,
    logger: h.services.logger,
  });

  it("erases everything about the learner from every table and the store, keeping the audit log without their name", async () => {
    await giveFiles(asha);
    await giveFiles(ravi);
    await send(asha.id, "notice", "<p>For Asha</p>");
    await send(ravi.id, "notice", "<p>For Ravi</p>");
    await h.act(admin, "/staff", { intent: "save-offer-letter", learnerId: asha.id, html: "<p>Offer for Asha</p>" });
    await h.act(asha, "/dashboard", { intent: "add-task-link", link: "https://github.com/asha/app" });
    await h.act(asha, "/settings", {
      intent: "save-email-preferences",
      notice: "digest",
      task: "off",
      certificate: "immediate",
      document: "immediate",
    });
    const filesBefore = await h.files();
    const done = await h.act(asha, "/settings", {
      intent: "delete-account",
      password: "correct-horse-1",
      confirmation: "DELETE",
    });
    expect(done.status).toBe(200);

    expect(await eraseDueAccounts(eraserDeps(), new Date(Date.now() + 7 * 86_400_000 + 60_000))).toBe(1);

    // No row of any table holds Asha's id, email or name; the audit rows remain, renamed.
    const tables =
      handle.dialect === "sqlite"
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(handle.db)).rows
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
              handle.db,
            )
          ).rows;
    expect(tables.length).toBeGreaterThan(15);
    const traces: string[] = [];
    for (const { name } of tables) {
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(handle.db)).rows;
      for (const row of rows) {
        const text = JSON.stringify(row);
        if ([asha.id, asha.email, "Asha"].some((trace) => text.includes(trace))) traces.push(`${name}: ${text}`);
      }
    }
    expect(traces).toEqual([]);
    const audit = await handle.db.selectFrom("staff_audit").selectAll().orderBy("createdAt").execute();
    expect(audit.map((row) => row.target)).toEqual([
      deletionMessages.deletedLearner,
      "Ravi",
      deletionMessages.deletedLearner,
    ]);
    // The texts sent to Asha alone go with her; Ravi's stay in the log.
    expect(audit.map((row) => row.sentText)).toEqual([null, "For Ravi", null]);

    // Asha's files are gone from the store; Ravi's are where they were.
    const filesAfter = await h.files();
    const ashaFiles = filesBefore.filter((file) => !filesAfter.includes(file));
    expect(ashaFiles).toHaveLength(2);
    expect(filesAfter.some((file) => file.includes(ravi.id.toLowerCase().replace(/[^a-z0-9]/g, "")))).toBe(true);
    // Ravi is untouched.
    const raviPage = await h.load<DashboardData>(ravi, "/dashboard");
    expect(raviPage.status).toBe(200);
    expect(raviPage.data.learner.unread.notice).toBe(1);
  });
});
