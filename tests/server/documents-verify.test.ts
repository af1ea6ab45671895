import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Insertable } from "kysely";
import type { Db } from "~/db/database.server";
import type { DocumentTable } from "~/db/schema";
import { documentSettingsAction, loadDocumentSettingsPage } from "~/documents/settings-page.server";
import { readDocumentSettings } from "~/documents/settings.server";
import { settingsMessages, signatureLimits } from "~/documents/settings-rules";
import { loadVerifyPage, verifyCodeFromForm } from "~/documents/verify-page.server";
import { guessKey, verifyDocument, wrongGuessLimit } from "~/documents/verify.server";
import { verifyMessages } from "~/documents/verify-messages";
import { CLIENT_IP_HEADER } from "~/http/request-context";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";
import { calendarDate } from "~/core/dates";

type Who = "anonymous" | "learner" | "staff" | "admin";
type VerifyData = Awaited<ReturnType<typeof loadVerifyPage>>;

let statusIndex = 0;

/** A document row as issuing writes it (the PDF itself is not needed by these pages). */
async function insertDocument(
  db: Db,
  learnerId: string,
  fields: Partial<Insertable<DocumentTable>> = {},
): Promise<Insertable<DocumentTable>> {
  const now = new Date().toISOString();
  const row: Insertable<DocumentTable> = {
    id: randomUUID(),
    code: `UPS-${randomUUID()
      .replace(/[^0-9]/g, "")
      .padEnd(16, "7")
      .slice(0, 16)
      .match(/.{4}/g)!
      .join("-")}`,
    kind: "certificate",
    learnerId,
    holderName: "Leena Rao",
    title: "Full Stack Web Development",
    description: "Twelve weeks of JavaScript, React and Node.js.",
    issuedOn: "2026-01-15",
    validUntil: null,
    hours: 120,
    issuerName: "Upskill",
    issuerUrl: appUrl,
    signatoryName: "Asha Kulkarni",
    signatoryTitle: "Director",
    storageKey: `documents/${randomUUID().replaceAll("-", "")}.pdf`,
    sha256: "ab".repeat(32),
    statusIndex: ++statusIndex + Math.floor(Math.random() * 1e6),
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  await db.insertInto("document").values(row).execute();
  return row;
}

const dayOffset = (days: number) => calendarDate(new Date(Date.now() + days * 86_400_000), "Asia/Kolkata");

describeEachDatabase("documents: settings and the verify page", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let people: Record<Exclude<Who, "anonymous">, Learner>;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle, { signatory: null });
    people = {
      learner: await h.signUp("Leena"),
      staff: await h.signUp("Suresh"),
      admin: await h.signUp("Anita"),
    };
    await h.setRole(people.staff, "mentor");
    await h.setRole(people.admin, "admin");
  });
  afterEach(async () => {
    await h.dispose();
    await handle.dispose();
  });

  const user = (who: Who) => (who === "anonymous" ? null : people[who]);

  const saveSettings = (who: Who, fields: Record<string, string | Blob>) => {
    const form = new FormData();
    form.set("intent", "save-document-settings");
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const person = user(who);
    const request = new Request(`${appUrl}/staff/documents`, {
      method: "POST",
      headers: { origin: appUrl, ...(person ? { cookie: person.cookie } : {}) },
      body: form,
    });
    return outcome<{ ok: boolean; message: string }>(() => documentSettingsAction(request));
  };

  const verify = (code: string, address = "203.0.113.5") =>
    outcome<VerifyData & { message?: string }>(() =>
      loadVerifyPage(new Request(`${appUrl}/verify/${code}`, { headers: { [CLIENT_IP_HEADER]: address } }), code),
    );

  const auditRows = () =>
    handle.db.selectFrom("staff_audit").select(["action", "detail", "target", "actorName"]).execute();

  const png = (width = 900, height = 300) =>
    sharp({ create: { width, height, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0 } } })
      .composite([
        {
          input: Buffer.from(
            `<svg width="${width}" height="${height}"><path d="M20 200 C 200 20, 400 280, 880 60" stroke="#123" stroke-width="8" fill="none"/></svg>`,
          ),
        },
      ])
      .png()
      .toBuffer();

  it("lets admins alone see and save the document settings, audited, with the signature re-encoded", async () => {
    const seen: Record<string, number> = {};
    for (const who of ["anonymous", "learner", "staff", "admin"] as const) {
      const person = user(who);
      const request = new Request(`${appUrl}/staff/documents`, { headers: person ? { cookie: person.cookie } : {} });
      seen[who] = (await outcome(() => loadDocumentSettingsPage(request))).status;
    }
    expect(seen).toEqual({ anonymous: 302, learner: 403, staff: 403, admin: 200 });

    const fields = { signatoryName: "Asha Kulkarni", signatoryTitle: "Director of Training" };
    const refused: Record<string, [number, string]> = {};
    for (const who of ["anonymous", "learner", "staff"] as const) {
      const answer = await saveSettings(who, fields);
      refused[who] = [answer.status, answer.data.message];
    }
    expect(refused).toEqual({
      anonymous: [401, "Please log in."],
      learner: [403, "Only staff can do this."],
      staff: [403, "Only an admin can do this."],
    });
    expect(await readDocumentSettings(handle.db, h.storage)).toEqual({
      signatoryName: null,
      signatoryTitle: null,
      signatureImage: null,
    });

    const signature = await png();
    const saved = await saveSettings("admin", { ...fields, signature: new Blob([signature], { type: "image/png" }) });
    expect(saved).toMatchObject({ status: 200, data: { ok: true, message: settingsMessages.saved } });
    const settings = await readDocumentSettings(handle.db, h.storage);
    expect(settings.signatoryName).toBe("Asha Kulkarni");
    expect(settings.signatoryTitle).toBe("Director of Training");
    const stored = await sharp(settings.signatureImage!).metadata();
    // Fitted into the box, a PNG, small.
    expect([stored.format, stored.width, stored.height]).toEqual(["png", 600, 200]);
    expect(settings.signatureImage!.length).toBeLessThan(signatureLimits.maxStoredBytes);
    const firstFiles = (await h.files()).filter((f) => f.startsWith("uploads/signatures/"));
    expect(firstFiles).toHaveLength(1);

    // A new image replaces the old file; removing it deletes the file; names alone keep the image.
    await saveSettings("admin", { ...fields, signature: new Blob([await png(300, 100)]) });
    const secondFiles = (await h.files()).filter((f) => f.startsWith("uploads/signatures/"));
    expect(secondFiles).toHaveLength(1);
    expect(secondFiles).not.toEqual(firstFiles);
    await saveSettings("admin", { signatoryName: "Asha K.", signatoryTitle: "Director" });
    expect((await readDocumentSettings(handle.db, h.storage)).signatureImage).not.toBeNull();
    await saveSettings("admin", { signatoryName: "Asha K.", signatoryTitle: "Director", removeSignature: "1" });
    expect(await readDocumentSettings(handle.db, h.storage)).toEqual({
      signatoryName: "Asha K.",
      signatoryTitle: "Director",
      signatureImage: null,
    });
    expect((await h.files()).filter((f) => f.startsWith("uploads/signatures/"))).toEqual([]);

    expect(await auditRows()).toEqual(
      expect.arrayContaining([
        {
          action: "document-settings",
          detail: "new signature image",
          target: "Asha Kulkarni, Director of Training",
          actorName: "Anita",
        },
        { action: "document-settings", detail: null, target: "Asha K., Director", actorName: "Anita" },
        {
          action: "document-settings",
          detail: "signature image removed",
          target: "Asha K., Director",
          actorName: "Anita",
        },
      ]),
    );
    expect(await auditRows()).toHaveLength(4);
    const page = await outcome<{ settings: { signatoryName: string; updatedBy: string } }>(() =>
      loadDocumentSettingsPage(new Request(`${appUrl}/staff/documents`, { headers: { cookie: people.admin.cookie } })),
    );
    expect(page.data.settings).toMatchObject({ signatoryName: "Asha K.", updatedBy: "Anita" });
  });

  it("refuses settings that are missing, too long or not a PNG with a 4xx and its message, storing nothing", async () => {
    const ok = { signatoryName: "Asha", signatoryTitle: "Director" };
    const jpeg = await sharp({ create: { width: 50, height: 20, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    const fakePng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(500, 7),
    ]);
    const cases: [Record<string, string | Blob>, number, string][] = [
      [{ signatoryTitle: "Director" }, 400, settingsMessages.nameRequired],
      [{ ...ok, signatoryName: "   " }, 400, settingsMessages.nameRequired],
      [{ ...ok, signatoryTitle: "" }, 400, settingsMessages.titleRequired],
      [{ ...ok, signatoryName: "x".repeat(101) }, 400, settingsMessages.nameTooLong],
      [{ ...ok, signatoryTitle: "Dir\u0000ector" }, 400, "Remove the control characters from the text."],
      [{ ...ok, signature: new Blob([jpeg], { type: "image/png" }) }, 415, settingsMessages.notPng],
      [{ ...ok, signature: new Blob([fakePng], { type: "image/png" }) }, 415, settingsMessages.notPng],
      [{ ...ok, signature: "not a file" }, 415, settingsMessages.notPng],
      [
        { ...ok, signature: new Blob([Buffer.alloc(signatureLimits.maxUploadBytes + 1)]) },
        413,
        settingsMessages.imageTooLarge,
      ],
    ];
    for (const [fields, status, message] of cases) {
      const answer = await saveSettings("admin", fields);
      expect([answer.status, answer.data.message], JSON.stringify(Object.keys(fields))).toEqual([status, message]);
    }
    expect(await handle.db.selectFrom("document_settings").selectAll().execute()).toEqual([]);
    expect(await h.files()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it("shows a document to anyone, with its state and fields and never the pay", async () => {
    const certificate = await insertDocument(handle.db, people.learner.id, { reissuedAt: new Date().toISOString() });
    const page = await verify(certificate.code);
    expect(page.status).toBe(200);
    expect(page.data.state).toBe("valid");
    expect(page.data.document).toMatchObject({
      code: certificate.code,
      holderName: "Leena Rao",
      title: "Full Stack Web Development",
      issuerName: "Upskill",
      issuedOn: "2026-01-15",
      hours: 120,
      sha256: "ab".repeat(32),
      jws: null,
    });
    expect(page.data.document.reissuedAt).not.toBeNull();

    const offer = await insertDocument(handle.db, people.learner.id, {
      kind: "offer-letter",
      title: "Junior Developer",
      hours: null,
      startDate: dayOffset(30),
      location: "Pune",
      payKind: "ctc",
      payAmountPaise: 45_000_000,
      payPeriod: "year",
      replyBy: dayOffset(7),
      body: "<p>Your pay is ₹4,50,000 a year.</p>",
      jws: "eyJhbGciOiJFZERTQSJ9.e30.sig",
    });
    const offerPage = await verify(offer.code);
    expect([offerPage.data.state, offerPage.data.reply]).toEqual(["valid", "awaiting"]);
    const text = JSON.stringify(offerPage.data);
    for (const secret of ["pay", "4500", "₹", "body", people.learner.id, people.learner.email]) {
      expect(text).not.toContain(secret);
    }
    expect(offerPage.data.document.jws).toBe("eyJhbGciOiJFZERTQSJ9.e30.sig");

    // Typed another way: sent to the printed form.
    const typed = certificate.code.toLowerCase().replaceAll("-", "");
    const redirected = await verify(typed);
    expect([redirected.status, redirected.location]).toEqual([301, `/verify/${certificate.code}`]);
    // From the /verify form too; a typo that can't be a code stays on the form with its message.
    expect(
      (await outcome(async () => verifyCodeFromForm(new Request(`${appUrl}/verify?code=${typed}`)))).location,
    ).toBe(`/verify/${certificate.code}`);
    expect(verifyCodeFromForm(new Request(`${appUrl}/verify?code=hello`))).toEqual({
      typed: "hello",
      problem: verifyMessages.notACode,
    });
    expect(verifyCodeFromForm(new Request(`${appUrl}/verify?code=+`)).problem).toBe(verifyMessages.noCode);
  });

  it("says Expired with the date, and Revoked over Expired", async () => {
    const ended = await insertDocument(handle.db, people.learner.id, { validUntil: dayOffset(-1) });
    const page = await verify(ended.code);
    expect([page.data.state, page.data.expiry]).toEqual(["expired", { by: "valid-until", date: dayOffset(-1) }]);
    const today = await insertDocument(handle.db, people.learner.id, { validUntil: dayOffset(0) });
    expect((await verify(today.code)).data.state).toBe("valid");

    const unanswered = await insertDocument(handle.db, people.learner.id, {
      kind: "offer-letter",
      replyBy: dayOffset(-2),
    });
    const offer = await verify(unanswered.code);
    expect([offer.data.state, offer.data.reply, offer.data.expiry]).toEqual([
      "expired",
      "expired",
      { by: "reply-by", date: dayOffset(-2) },
    ]);
    const accepted = await insertDocument(handle.db, people.learner.id, {
      kind: "offer-letter",
      replyBy: dayOffset(-2),
      response: "accepted",
      respondedAt: new Date().toISOString(),
    });
    expect([(await verify(accepted.code)).data.state, (await verify(accepted.code)).data.reply]).toEqual([
      "valid",
      "accepted",
    ]);
    const revoked = await insertDocument(handle.db, people.learner.id, {
      validUntil: dayOffset(-1),
      revokedAt: new Date().toISOString(),
      revokeReason: "Issued to the wrong batch.",
    });
    const revokedPage = await verify(revoked.code);
    expect([revokedPage.data.state, revokedPage.data.document.revokeReason]).toEqual([
      "revoked",
      "Issued to the wrong batch.",
    ]);
  });

  it("sees a change made through another connection at once (updatedAt is read on every request)", async () => {
    const row = await insertDocument(handle.db, people.learner.id);
    expect((await verify(row.code)).data.state).toBe("valid");
    expect((await verify(row.code)).data.state).toBe("valid");
    // Another instance revokes it: nothing here is told.
    const other = await handle.reopen();
    try {
      await other.db
        .updateTable("document")
        .set({ revokedAt: new Date().toISOString(), revokeReason: "Withdrawn.", updatedAt: new Date().toISOString() })
        .where("code", "=", row.code)
        .execute();
    } finally {
      await other.close();
    }
    const after = await verify(row.code);
    expect([after.data.state, after.data.document.revokeReason]).toEqual(["revoked", "Withdrawn."]);
    // An unchanged updatedAt is served from the cache: a row changed without touching it is not re-read.
    await handle.db.updateTable("document").set({ holderName: "Not Re-read" }).where("code", "=", row.code).execute();
    expect((await verify(row.code)).data.document.holderName).toBe("Leena Rao");
  });

  it("answers an unknown code 404 'No document with this code.', and limits wrong guesses per address", async () => {
    const known = await insertDocument(handle.db, people.learner.id);
    const unknown = "UPS-0000-0000-0000-0000";
    const first = await verify(unknown, "198.51.100.7");
    expect([first.status, first.data.message]).toEqual([404, "No document with this code."]);
    // Something that can't be a code is the same 404 (and costs no database read).
    expect((await verify("not-a-code", "198.51.100.7")).status).toBe(404);
    for (let i = 1; i < wrongGuessLimit.max; i++) expect((await verify(unknown, "198.51.100.7")).status).toBe(404);
    // The limit reached: every look-up from this address is refused, a real code too.
    const limited = await verify(unknown, "198.51.100.7");
    expect([limited.status, limited.data.message]).toEqual([429, verifyMessages.tooManyGuesses]);
    expect((await verify(known.code, "198.51.100.7")).status).toBe(429);
    // Another address is not affected; right codes never count.
    for (let i = 0; i < wrongGuessLimit.max + 5; i++)
      expect((await verify(known.code, "198.51.100.8")).status).toBe(200);
    expect((await verify(unknown, "198.51.100.8")).status).toBe(404);
    // The window over, the address may look up again.
    const later = Date.now() + wrongGuessLimit.windowMs + 1;
    expect(await verifyDocument(handle.db, known.code, "198.51.100.7", later)).toMatchObject({ found: true });
    const counter = await handle.db
      .selectFrom("rate_limit")
      .select("count")
      .where("key", "=", guessKey("198.51.100.7"))
      .executeTakeFirstOrThrow();
    // Refused look-ups do not count further: the window is not pushed on by trying.
    expect(Number(counter.count)).toBe(wrongGuessLimit.max);
  });
});
