import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { correctionMessages, revokeReasonMax } from "~/documents/correction-fields";
import { documentMessages } from "~/documents/document-fields";
import { publishedKeySet, readDocumentClaims } from "~/documents/signing.server";
import { loadVerifyPage } from "~/documents/verify-page.server";
import { CLIENT_IP_HEADER } from "~/http/request-context";
import { userTopic, type RealtimeEvent } from "~/realtime/events";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { appUrl, createHarness, outcome, type Harness, type Learner } from "../support/test-app";

// Revoking and reissuing documents (admins, on the learner's page): who may, what the verify
// page then says, the PDF made again under the same code, audit rows and live events.

type Who = "anonymous" | "learner" | "other" | "staff" | "admin";
type VerifyData = Awaited<ReturnType<typeof loadVerifyPage>>;

const certificate = {
  title: "Full Stack Web Develpment",
  description: "HTML, CSS, JavaScript, React and Node.js.",
  issuedOn: "2026-01-10",
  validUntil: "",
  hours: "480",
};

const offer = {
  title: "Junior Web Developer",
  issuedOn: "2026-01-10",
  startDate: "2099-01-04",
  location: "Pune",
  payKind: "stipend",
  payAmount: "25,000",
  payPeriod: "month",
  replyBy: "2099-01-01",
  body: "We are pleased to offer you this position.",
};

function pdfText(pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "upskill-pdf-")), "document.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

describeEachDatabase("documents: revoke and reissue", (database) => {
  let handle: TestDatabaseHandle;
  let h: Harness;
  let people: Record<Exclude<Who, "anonymous">, Learner>;

  beforeEach(async () => {
    handle = await database.open();
    h = await createHarness(handle);
    people = {
      learner: await h.signUp("Leena"),
      other: await h.signUp("Omkar"),
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
  const page = (learner = people.learner) => `/staff/learners/${learner.id}`;
  const act = (who: Who, fields: Record<string, string>) => h.act(user(who), page(), fields);

  const issue = async (kind: "certificate" | "offer-letter", learner = people.learner) => {
    const answer =
      kind === "certificate"
        ? await h.act(people.admin, page(learner), {
            intent: "issue-certificate",
            learnerIds: learner.id,
            ...certificate,
          })
        : await h.act(people.admin, page(learner), { intent: "issue-offer-letter", learnerId: learner.id, ...offer });
    expect(answer.status, JSON.stringify(answer.data)).toBe(200);
    return handle.db
      .selectFrom("document")
      .selectAll()
      .where("learnerId", "=", learner.id)
      .where("kind", "=", kind)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
  };
  const row = (id: string) =>
    handle.db.selectFrom("document").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const stored = async (key: string) => {
    const object = await h.storage.get(key);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const verify = (code: string) =>
    outcome<VerifyData>(() =>
      loadVerifyPage(new Request(`${appUrl}/verify/${code}`, { headers: { [CLIENT_IP_HEADER]: "192.0.2.9" } }), code),
    );
  const audit = () =>
    handle.db
      .selectFrom("staff_audit")
      .select(["action", "detail", "target", "actorName"])
      .orderBy("createdAt")
      .execute();
  const heard = (learner: Learner) => {
    const events: RealtimeEvent[] = [];
    h.bus.subscribe(userTopic(learner.id), (event) => events.push(event));
    return events;
  };

  it("lets admins alone revoke and reissue: anonymous 401, learners 403, staff 403", async () => {
    const document = await issue("certificate");
    const base = { learnerId: people.learner.id, documentId: document.id };
    const intents = [
      { intent: "revoke-document", ...base, reason: "Issued by mistake." },
      { intent: "reissue-certificate", ...base, ...certificate, holderName: "Leena Rao" },
      { intent: "reissue-offer-letter", ...base, ...offer, holderName: "Leena Rao" },
    ];
    for (const fields of intents) {
      const seen: Record<string, number> = {};
      for (const who of ["anonymous", "learner", "other", "staff"] as const)
        seen[who] = (await act(who, fields)).status;
      expect({ intent: fields.intent, ...seen }).toEqual({
        intent: fields.intent,
        anonymous: 401,
        learner: 403,
        other: 403,
        staff: 403,
      });
      const refused = await act("staff", fields);
      expect(refused.data.message).toBe("Only an admin can do this.");
    }
    // Nothing changed, nothing audited but the issue.
    expect(await row(document.id)).toEqual(document);
    expect((await audit()).map((entry) => entry.action)).toEqual(["issue-certificate"]);
    // An admin naming the document under another learner: no such document.
    const elsewhere = await h.act(people.admin, page(people.other), {
      ...intents[0]!,
      learnerId: people.other.id,
    });
    expect([elsewhere.status, elsewhere.data.message]).toEqual([404, correctionMessages.gone]);
  });

  it("revokes with a reason: the verify page says Revoked with it, audited, the learner's tabs told", async () => {
    const document = await issue("certificate");
    const events = heard(people.learner);
    const base = { intent: "revoke-document", learnerId: people.learner.id, documentId: document.id };
    for (const [reason, message] of [
      ["", correctionMessages.noReason],
      ["   ", correctionMessages.noReason],
      ["x".repeat(revokeReasonMax + 1), correctionMessages.reasonTooLong],
      ["Bad\u0000reason", "Remove the control characters from the text."],
    ] as const) {
      const answer = await act("admin", { ...base, reason });
      expect([answer.status, answer.data.message]).toEqual([400, message]);
    }
    expect((await verify(document.code)).data.state).toBe("valid");

    const revoked = await act("admin", { ...base, reason: "  Issued to the wrong batch.  " });
    expect(revoked).toMatchObject({
      status: 200,
      data: { ok: true, message: correctionMessages.revoked(document.code) },
    });
    const after = await row(document.id);
    expect(after).toMatchObject({ revokeReason: "Issued to the wrong batch.", revokedBy: people.admin.id });
    expect(after.revokedAt).not.toBeNull();
    expect(after.updatedAt > document.updatedAt).toBe(true);
    const shown = await verify(document.code);
    expect([shown.data.state, shown.data.document.revokeReason, shown.data.document.revokedAt]).toEqual([
      "revoked",
      "Issued to the wrong batch.",
      after.revokedAt,
    ]);
    expect(events).toContainEqual({ type: "documents", kind: "certificate" });
    expect((await audit()).at(-1)).toEqual({
      action: "revoke-document",
      detail: document.code,
      target: "Leena",
      actorName: "Anita",
    });

    const again = await act("admin", { ...base, reason: "Twice." });
    expect([again.status, again.data.message]).toEqual([409, correctionMessages.alreadyRevoked]);
    // A revoked document is not reissued: revoking is final.
    const reissue = await act("admin", {
      intent: "reissue-certificate",
      learnerId: people.learner.id,
      documentId: document.id,
      ...certificate,
      holderName: "Leena Rao",
    });
    expect([reissue.status, reissue.data.message]).toEqual([409, correctionMessages.revokedNoReissue]);
    expect((await row(document.id)).revokeReason).toBe("Issued to the wrong batch.");
    expect((await audit()).filter((entry) => entry.action === "revoke-document")).toHaveLength(1);
  });

  it("reissues a certificate with corrections: same code, new PDF and SHA-256, old PDF deleted, Reissued on", async () => {
    const document = await issue("certificate");
    await handle.db.updateTable("document").set({ jws: "old.signed.claims" }).where("id", "=", document.id).execute();
    const before = await row(document.id);
    const oldPdf = await stored(document.storageKey);
    expect(pdfText(oldPdf!)).toContain("Develpment");
    expect((await verify(document.code)).data.document.jws).toBe("old.signed.claims");
    const events = heard(people.learner);
    const base = {
      intent: "reissue-certificate",
      learnerId: people.learner.id,
      documentId: document.id,
      holderName: "Leena",
      ...certificate,
    };

    const unchanged = await act("admin", base);
    expect([unchanged.status, unchanged.data.message]).toEqual([400, correctionMessages.unchanged]);
    for (const [fields, message] of [
      [{ holderName: " " }, correctionMessages.noHolder],
      [{ holderName: "x".repeat(101) }, correctionMessages.holderTooLong],
      [{ validUntil: "2025-12-31" }, documentMessages.validBeforeIssue],
      // The issue date left empty keeps the one issued, and 'Valid until' is checked against it.
      [{ issuedOn: "", validUntil: "2026-01-09" }, documentMessages.validBeforeIssue],
      [{ hours: "0" }, documentMessages.badHours],
      [{ issuedOn: "2026-02-30" }, documentMessages.badDate],
    ] as const) {
      const answer = await act("admin", { ...base, ...fields });
      expect([answer.status, answer.data.message], JSON.stringify(fields)).toEqual([400, message]);
    }
    expect(await row(document.id)).toEqual(before);

    const reissued = await act("admin", {
      ...base,
      holderName: "Leena Rao",
      title: "Full Stack Web Development",
      issuedOn: "",
      validUntil: "2028-01-09",
    });
    expect(reissued).toMatchObject({
      status: 200,
      data: { ok: true, message: correctionMessages.reissued(document.code) },
    });
    const after = await row(document.id);
    expect(after).toMatchObject({
      code: document.code,
      holderName: "Leena Rao",
      title: "Full Stack Web Development",
      issuedOn: "2026-01-10",
      validUntil: "2028-01-09",
      statusIndex: document.statusIndex,
    });
    // Signed again: the claims name the corrected fields, checked with the published keys alone.
    const claims = await readDocumentClaims(after.jws!, await publishedKeySet(handle.db));
    expect(claims).toMatchObject({ code: document.code, holder: "Leena Rao", validUntil: "2028-01-09" });
    expect(after.reissuedAt).not.toBeNull();
    expect(after.storageKey).not.toBe(document.storageKey);
    expect(after.sha256).not.toBe(document.sha256);
    // The old PDF is gone; the new one is what the SHA-256 names, with the corrections and the same code.
    expect(await stored(document.storageKey)).toBeNull();
    const pdf = (await stored(after.storageKey))!;
    expect(createHash("sha256").update(pdf).digest("hex")).toBe(after.sha256);
    const text = pdfText(pdf);
    expect(text).toContain("Leena Rao");
    expect(text).toContain("Full Stack Web Development");
    expect(text).toContain(document.code);
    expect((await h.files()).filter((file) => file.startsWith("uploads/documents/"))).toEqual([
      `uploads/${after.storageKey}`,
    ]);

    const shown = await verify(document.code);
    expect(shown.data.state).toBe("valid");
    expect(shown.data.document).toMatchObject({
      holderName: "Leena Rao",
      sha256: after.sha256,
      reissuedAt: after.reissuedAt,
      jws: after.jws,
    });
    expect(events).toContainEqual({ type: "documents", kind: "certificate" });
    expect((await audit()).at(-1)).toEqual({
      action: "reissue-document",
      detail: document.code,
      target: "Leena",
      actorName: "Anita",
    });
    // The learner downloads the new PDF from the same place.
    const download = await h.call(people.learner, "GET", `/api/documents/${document.code}/pdf`);
    expect(
      createHash("sha256")
        .update(Buffer.from(await download.arrayBuffer()))
        .digest("hex"),
    ).toBe(after.sha256);
  });

  it("reissues an offer letter with its terms corrected, keeping the reply; a certificate's fields don't fit it", async () => {
    const letter = await issue("offer-letter");
    await handle.db
      .updateTable("document")
      .set({ response: "accepted", respondedAt: new Date().toISOString() })
      .where("id", "=", letter.id)
      .execute();
    const base = {
      intent: "reissue-offer-letter",
      learnerId: people.learner.id,
      documentId: letter.id,
      holderName: "Leena",
      ...offer,
    };
    const wrongKind = await act("admin", {
      ...base,
      ...certificate,
      intent: "reissue-certificate",
    });
    expect(wrongKind.status).toBe(400);
    expect((await act("admin", { ...base, body: "<p></p>" })).data.message).toBe("Please enter an offer letter.");

    const reissued = await act("admin", { ...base, payAmount: "27,500", location: "Pune (Baner)" });
    expect(reissued.status, JSON.stringify(reissued.data)).toBe(200);
    const after = await row(letter.id);
    expect(Number(after.payAmountPaise)).toBe(2_750_000);
    expect([after.location, after.response, after.code]).toEqual(["Pune (Baner)", "accepted", letter.code]);
    const text = pdfText((await stored(after.storageKey))!);
    expect(text).toContain("27,500");
    expect(text).toContain("Pune (Baner)");
    // The verify page shows the corrected letter and its reply, never the pay.
    const shown = await verify(letter.code);
    expect([shown.data.state, shown.data.reply, shown.data.document.location]).toEqual([
      "valid",
      "accepted",
      "Pune (Baner)",
    ]);
    expect(JSON.stringify(shown.data)).not.toMatch(/27,?500|pay/i);
  });
});
