import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { hourOfDayIn } from "~/core/dates";
import { issuerDidDocument } from "~/documents/data-integrity.server";
import { verifyOpenBadgeCredential } from "~/documents/open-badge.server";
import { publishedKeySet, readDocumentClaims } from "~/documents/signing.server";
import { revokedStatusIndexes, statusListCredential } from "~/documents/status-list.server";
import { deletionMessages } from "~/learners/account-deletion";
import { eraseDueAccounts } from "~/learners/account-deletion.server";
import { renderMetrics } from "~/metrics/metrics.server";
import { readUnsubscribeToken } from "~/mail/unsubscribe.server";
import * as credentialRoute from "~/routes/verify.$code.credential";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { headerText, startSmtp, type TestSmtp } from "../support/smtp";
import { achievementCredentialErrors } from "../support/open-badges/schema";
import { appUrl, createHarness, type Harness, type Learner } from "../support/test-app";

/** The positions whose bit differs between two encoded status lists. */
function bitsDiffering(before: string, after: string): number[] {
  const decode = (encoded: string) => gunzipSync(Buffer.from(encoded.slice(1), "base64url"));
  const [a, b] = [decode(before), decode(after)];
  expect(b.length).toBe(a.length);
  const differing: number[] = [];
  for (let byte = 0; byte < a.length; byte++) {
    const changed = a[byte]! ^ b[byte]!;
    for (let bit = 0; bit < 8; bit++) if (changed & (0x80 >> bit)) differing.push(byte * 8 + bit);
  }
  return differing;
}

const certificate = {
  title: "Data Analysis with Python",
  description: "Pandas, SQL and dashboards.",
  issuedOn: "",
  validUntil: "",
  hours: "120",
};

// Issued documents: signed at issue, emailed through the queue as the learner chose, listed in
// the digest, published as Open Badges, and kept (revoked) when their holder erases the account.
describeEachDatabase("documents: signatures, emails, badges, erasure", (database) => {
  let handle: TestDatabaseHandle;
  let smtp: TestSmtp;
  let h: Harness;
  let admin: Learner;
  let meera: Learner;

  beforeEach(async () => {
    handle = await database.open();
    smtp = await startSmtp();
    h = await createHarness(handle, { env: { SMTP_URL: smtp.url, DIGEST_HOUR: "0" } });
    admin = await h.signUp("Admin");
    await h.setRole(admin, "admin");
    meera = await h.signUp("Meera");
  });
  afterEach(async () => {
    await h.dispose();
    await smtp.close();
    await handle.dispose();
  });

  const issue = async () => {
    const issued = await h.act(admin, `/staff/learners/${meera.id}`, {
      intent: "issue-certificate",
      learnerIds: meera.id,
      ...certificate,
    });
    expect(issued.status, issued.data.message).toBe(200);
    return handle.db
      .selectFrom("document")
      .selectAll()
      .where("learnerId", "=", meera.id)
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
  };

  it("signs each document at issue: its JWS checks with the published keys alone, and counts it in the metrics", async () => {
    const issuedSoFar = async () =>
      Number(/^documents_issued_total (\d+)/m.exec((await renderMetrics()).body)?.[1] ?? Number.NaN);
    const before = await issuedSoFar();
    const document = await issue();
    expect(await issuedSoFar()).toBe(before + 1);
    const claims = await readDocumentClaims(document.jws!, await publishedKeySet(handle.db));
    expect(claims).toMatchObject({
      code: document.code,
      kind: "certificate",
      holder: "Meera",
      title: certificate.title,
      issuer: appUrl,
    });
  });

  it("emails the PDF through the queue with one-click unsubscribe from documents; on the digest, lists it instead", async () => {
    const first = await issue();
    await h.services.mailWorker.runOnce();
    const [mail] = smtp.mails;
    expect(mail!.parsed.subject).toBe(`Your certificate: ${certificate.title}`);
    expect(mail!.parsed.attachments.map((a) => [a.contentType, a.content.subarray(0, 4).toString()])).toEqual([
      ["application/pdf", "%PDF"],
    ]);
    expect(mail!.parsed.text).toContain(first.code);
    const link = headerText(mail!, "List-Unsubscribe").slice(1, -1);
    const token = new URL(link).searchParams.get("token")!;
    expect(readUnsubscribeToken(h.services.unsubscribeKey, token)).toMatchObject({ kinds: ["document"] });

    await h.act(meera, "/settings", {
      intent: "save-email-preferences",
      notice: "immediate",
      task: "immediate",
      certificate: "immediate",
      document: "digest",
    });
    const second = await issue();
    // The digest goes out at the next digest hour (18:00 in the institute's zone by default):
    // half an hour past tomorrow's, whatever the time of day this test runs.
    const tomorrow = new Date(Date.now() + 86_400_000);
    await h.services.mailWorker.runOnce(new Date(hourOfDayIn(tomorrow, 18, "Asia/Kolkata").getTime() + 1_800_000));
    const digest = smtp.mails.find((m) => m.parsed.subject?.startsWith("Your daily summary"));
    expect(smtp.mails).toHaveLength(2);
    expect(digest!.parsed.subject).toBe("Your daily summary from Upskill: 1 new item");
    expect(digest!.parsed.text).toContain(`Certificate: ${certificate.title} (${second.code})`);
  });

  it("publishes a certificate as an Open Badge whose proof verifies, and whose status says revoked once revoked", async () => {
    const document = await issue();
    const get = async (code: string) => {
      const response = await credentialRoute.loader({
        request: new Request(`${appUrl}/verify/${code}/credential.json`),
        params: { code },
        context: {},
      } as never);
      return response;
    };
    const response = await get(document.code.toLowerCase().replaceAll("-", ""));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vc");
    const credential = await response.json();
    expect(credential.type).toContain("OpenBadgeCredential");
    const didDocument = await issuerDidDocument(handle.db, appUrl);
    const status = async () => statusListCredential(handle.db, appUrl, await revokedStatusIndexes(handle.db));
    expect(await verifyOpenBadgeCredential(credential, { didDocument, statusList: await status() })).toMatchObject({
      verified: true,
      revoked: false,
    });
    const tampered = { ...credential, credentialSubject: { ...credential.credentialSubject, name: "Someone Else" } };
    expect((await verifyOpenBadgeCredential(tampered, { didDocument })).verified).toBe(false);

    const revoked = await h.act(admin, `/staff/learners/${meera.id}`, {
      intent: "revoke-document",
      learnerId: meera.id,
      documentId: document.id,
      reason: "Issued in error.",
    });
    expect(revoked.status, revoked.data.message).toBe(200);
    expect(await verifyOpenBadgeCredential(credential, { didDocument, statusList: await status() })).toMatchObject({
      revoked: true,
    });
    expect((await get("UPS-0000-0000-0000-0000")).status).toBe(404);
  });

  it("serves a certificate's Open Badge as signed at issue: schema-valid, the same bytes on every fetch, and revoking flips only its bit", async () => {
    const document = await issue();
    const stored = await handle.db
      .selectFrom("document")
      .select("credential")
      .where("id", "=", document.id)
      .executeTakeFirstOrThrow();
    expect(stored.credential).not.toBeNull();

    const fetchBytes = async () => {
      const response = await credentialRoute.loader({
        request: new Request(`${appUrl}/verify/${document.code}/credential.json`),
        params: { code: document.code },
        context: {},
      } as never);
      expect(response.status).toBe(200);
      return response.text();
    };
    const first = await fetchBytes();
    // A minute later: a credential signed at the fetch would say so in proof.created.
    vi.useFakeTimers({ now: Date.now() + 60_000, toFake: ["Date"] });
    let second: string;
    try {
      second = await fetchBytes();
    } finally {
      vi.useRealTimers();
    }
    expect(second).toBe(first);
    expect(first).toBe(stored.credential);

    const credential = JSON.parse(first);
    expect(achievementCredentialErrors(credential)).toEqual([]);
    const didDocument = await issuerDidDocument(handle.db, appUrl);
    const statusList = async () => statusListCredential(handle.db, appUrl, await revokedStatusIndexes(handle.db));
    const before = await statusList();
    expect(await verifyOpenBadgeCredential(credential, { didDocument, statusList: before })).toEqual({
      verified: true,
      errors: [],
      revoked: false,
    });

    const revoked = await h.act(admin, `/staff/learners/${meera.id}`, {
      intent: "revoke-document",
      learnerId: meera.id,
      documentId: document.id,
      reason: "Issued in error.",
    });
    expect(revoked.status, revoked.data.message).toBe(200);
    const after = await statusList();
    expect(bitsDiffering(before.credentialSubject.encodedList, after.credentialSubject.encodedList)).toEqual([
      document.statusIndex,
    ]);
    expect(await verifyOpenBadgeCredential(credential, { didDocument, statusList: after })).toMatchObject({
      verified: false,
      revoked: true,
    });
    // Revoking changes the list, never the credential.
    expect(await fetchBytes()).toBe(first);
  });

  it("signs a certificate kept from before credentials were stored on its first fetch, keeps it, and signs again on reissue", async () => {
    const document = await issue();
    await handle.db.updateTable("document").set({ credential: null }).where("id", "=", document.id).execute();
    const fetchBytes = async () => {
      const response = await credentialRoute.loader({
        request: new Request(`${appUrl}/verify/${document.code}/credential.json`),
        params: { code: document.code },
        context: {},
      } as never);
      expect(response.status).toBe(200);
      return response.text();
    };
    // Two first fetches at once (two instances, say) serve the one that was stored.
    const [one, two] = await Promise.all([fetchBytes(), fetchBytes()]);
    const kept = await handle.db
      .selectFrom("document")
      .select("credential")
      .where("id", "=", document.id)
      .executeTakeFirstOrThrow();
    expect(kept.credential).not.toBeNull();
    expect(await fetchBytes()).toBe(kept.credential);
    expect([one, two].filter((bytes) => bytes === kept.credential).length).toBeGreaterThanOrEqual(1);
    const didDocument = await issuerDidDocument(handle.db, appUrl);
    for (const bytes of [one, two]) {
      expect(achievementCredentialErrors(JSON.parse(bytes))).toEqual([]);
      expect((await verifyOpenBadgeCredential(JSON.parse(bytes), { didDocument })).verified).toBe(true);
    }

    const reissued = await h.act(admin, `/staff/learners/${meera.id}`, {
      intent: "reissue-certificate",
      learnerId: meera.id,
      documentId: document.id,
      ...certificate,
      holderName: "Meera",
      title: "Data Analysis with Python and SQL",
    });
    expect(reissued.status, reissued.data.message).toBe(200);
    const corrected = await fetchBytes();
    expect(corrected).not.toBe(kept.credential);
    expect(JSON.parse(corrected).credentialSubject.achievement.name).toBe("Data Analysis with Python and SQL");
    expect((await verifyOpenBadgeCredential(JSON.parse(corrected), { didDocument })).verified).toBe(true);
    expect(await fetchBytes()).toBe(corrected);
  });

  it("keeps the documents of an erased account, revoked because the holder deleted it", async () => {
    const document = await issue();
    const done = await h.act(meera, "/settings", {
      intent: "delete-account",
      password: "correct-horse-1",
      confirmation: "DELETE",
    });
    expect(done.status).toBe(200);
    const deps = { db: handle.db, storage: h.storage, resumes: h.services.resumes, logger: h.services.logger };
    expect(await eraseDueAccounts(deps, new Date(Date.now() + 8 * 86_400_000))).toBe(1);
    const kept = await handle.db.selectFrom("document").selectAll().where("id", "=", document.id).executeTakeFirst();
    expect(kept).toMatchObject({
      learnerId: null,
      code: document.code,
      revokeReason: deletionMessages.documentRevoked,
    });
    expect(kept!.revokedAt).not.toBeNull();
    expect(await h.storage.stat(document.storageKey)).not.toBeNull();
  });
});
