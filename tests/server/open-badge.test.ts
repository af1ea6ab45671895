import jsonld from "jsonld";
import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { issuerDid, issuerDidDocument } from "~/documents/data-integrity.server";
import { offlineDocumentLoader } from "~/documents/json-ld.server";
import {
  openBadgeCredential,
  verifyOpenBadgeCredential,
  type BadgeCertificate,
  type OpenBadgeCredential,
} from "~/documents/open-badge.server";
import { activeSigningKey, rotateSigningKey } from "~/documents/signing.server";
import { isStatusSet, revokedStatusIndexes, statusListCredential } from "~/documents/status-list.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";
import { achievementCredentialErrors } from "../support/open-badges/schema";

const appUrl = "https://upskill.example";
const certificate: BadgeCertificate = {
  code: "UPS-7K3M-Q9PX-2D4F-HW8R",
  holderName: "Asha Rao",
  title: "Python for Data Analysis",
  description: "Pandas, plotting and a capstone project on public data.",
  hours: 60,
  issuedOn: "2025-03-14",
  validUntil: null,
  issuerName: "Upskill Institute",
  issuerUrl: appUrl,
  statusIndex: 41,
};
const options = { verifyUrl: `${appUrl}/verify/${certificate.code}`, timeZone: "Asia/Kolkata" };

/** A credential as a holder keeps and later presents it: JSON, not the object we built. */
const asStored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describeEachDatabase("Open Badges credentials", (database) => {
  let handle: TestDatabaseHandle;
  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(() => handle.dispose());

  it("issues an OpenBadgeCredential whose eddsa-rdfc-2022 proof verifies against the issuer's DID document", async () => {
    const credential = asStored(await openBadgeCredential(handle.db, certificate, options));
    expect(credential).toMatchObject({
      "@context": [
        "https://www.w3.org/ns/credentials/v2",
        "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json",
      ],
      id: "https://upskill.example/verify/UPS-7K3M-Q9PX-2D4F-HW8R",
      type: ["VerifiableCredential", "OpenBadgeCredential"],
      issuer: { id: "did:web:upskill.example", type: ["Profile"], name: "Upskill Institute", url: appUrl },
      validFrom: "2025-03-14T00:00:00+05:30",
      credentialSubject: {
        type: ["AchievementSubject"],
        name: "Asha Rao",
        achievement: {
          type: ["Achievement"],
          name: "Python for Data Analysis",
          description: "Pandas, plotting and a capstone project on public data.",
          criteria: { narrative: "Completed Python for Data Analysis (60 hours) at Upskill Institute." },
        },
      },
      credentialStatus: {
        type: "BitstringStatusListEntry",
        statusPurpose: "revocation",
        statusListIndex: "41",
        statusListCredential: "https://upskill.example/credentials/status/1",
      },
      proof: [
        {
          type: "DataIntegrityProof",
          cryptosuite: "eddsa-rdfc-2022",
          proofPurpose: "assertionMethod",
          verificationMethod: expect.stringMatching(/^did:web:upskill\.example#/),
        },
      ],
    });
    expect(credential).not.toHaveProperty("validUntil");

    const didDocument = asStored(await issuerDidDocument(handle.db, appUrl));
    expect(await verifyOpenBadgeCredential(credential, { didDocument })).toEqual({
      verified: true,
      errors: [],
      revoked: null,
    });
  });

  it("validates against the 1EdTech AchievementCredential JSON Schema, with and without an end date", async () => {
    for (const validUntil of [null, "2026-03-13"]) {
      const credential = asStored(await openBadgeCredential(handle.db, { ...certificate, validUntil }, options));
      expect(achievementCredentialErrors(credential)).toEqual([]);
      // The schema is not a formality: a lone proof object, as the signer writes it, fails it.
      expect(achievementCredentialErrors({ ...credential, proof: credential.proof[0] })).toContain(
        "/proof: must be array",
      );
    }
  });

  it("fails when anything signed was changed: the achievement's name, the holder, the dates", async () => {
    const credential = asStored(await openBadgeCredential(handle.db, certificate, options));
    const didDocument = await issuerDidDocument(handle.db, appUrl);
    const changes: ((c: OpenBadgeCredential) => void)[] = [
      (c) => (c.credentialSubject.achievement.name = "Advanced Python for Data Analysis"),
      (c) => (c.credentialSubject.name = "Someone Else"),
      (c) => (c.validFrom = "2024-03-14T00:00:00+05:30"),
      (c) => (c.issuer.name = "Another Institute"),
      (c) => (c.credentialStatus.statusListIndex = "42"),
    ];
    for (const change of changes) {
      const tampered = structuredClone(credential);
      change(tampered);
      const check = await verifyOpenBadgeCredential(tampered, { didDocument });
      expect(check.verified, change.toString()).toBe(false);
      expect(check.errors.join(" ")).toMatch(/invalid signature/i);
    }
  });

  it("fails for a key the issuer's DID document does not list, and for another issuer", async () => {
    const other = await database.open();
    try {
      const foreign = asStored(await openBadgeCredential(other.db, certificate, options));
      const check = await verifyOpenBadgeCredential(foreign, {
        didDocument: await issuerDidDocument(handle.db, appUrl),
      });
      expect(check.verified).toBe(false);
      expect(check.errors.join(" ")).toMatch(/Refused to load did:web:upskill\.example#/);
    } finally {
      await other.dispose();
    }
    const elsewhere = asStored(
      await openBadgeCredential(handle.db, { ...certificate, issuerUrl: "https://other.example" }, options),
    );
    const check = await verifyOpenBadgeCredential(elsewhere, {
      didDocument: await issuerDidDocument(handle.db, appUrl),
    });
    expect(check.verified).toBe(false);
  });

  it("keeps verifying credentials signed before a rotation; new ones name the new key", async () => {
    const before = asStored(await openBadgeCredential(handle.db, certificate, options));
    const { active } = await rotateSigningKey(handle.db);
    const after = asStored(await openBadgeCredential(handle.db, certificate, options));
    expect(after.proof[0]!.verificationMethod).toBe(`did:web:upskill.example#${active}`);
    expect(before.proof[0]!.verificationMethod).not.toContain(active);

    const didDocument = await issuerDidDocument(handle.db, appUrl);
    expect(didDocument.assertionMethod).toHaveLength(2);
    expect((await verifyOpenBadgeCredential(before, { didDocument })).verified).toBe(true);
    expect((await verifyOpenBadgeCredential(after, { didDocument })).verified).toBe(true);
  });

  it("marks a revoked index in the signed status list, and a revoked credential does not verify", async () => {
    const credential = asStored(await openBadgeCredential(handle.db, certificate, options));
    const other = asStored(await openBadgeCredential(handle.db, { ...certificate, statusIndex: 40 }, options));
    const didDocument = await issuerDidDocument(handle.db, appUrl);

    const list = asStored(await statusListCredential(handle.db, appUrl, [3, 41, 200_000]));
    expect(list).toMatchObject({
      id: "https://upskill.example/credentials/status/1",
      type: ["VerifiableCredential", "BitstringStatusListCredential"],
      issuer: "did:web:upskill.example",
      credentialSubject: { type: "BitstringStatusList", statusPurpose: "revocation" },
      proof: { cryptosuite: "eddsa-rdfc-2022" },
    });
    expect([3, 40, 41, 42, 200_000].map((index) => isStatusSet(list.credentialSubject.encodedList, index))).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);

    expect(await verifyOpenBadgeCredential(credential, { didDocument, statusList: list })).toEqual({
      verified: false,
      errors: ["The credential has been revoked."],
      revoked: true,
    });
    expect(await verifyOpenBadgeCredential(other, { didDocument, statusList: list })).toEqual({
      verified: true,
      errors: [],
      revoked: false,
    });

    // A list whose bits were changed after signing is not believed.
    const forged = structuredClone(asStored(await statusListCredential(handle.db, appUrl, [])));
    forged.credentialSubject.encodedList = list.credentialSubject.encodedList;
    const check = await verifyOpenBadgeCredential(other, { didDocument, statusList: forged });
    expect(check.verified).toBe(false);
    expect(check.errors.join(" ")).toMatch(/status list did not verify/i);
  });

  it("fails after validUntil, which is the end of that day in the institute's zone", async () => {
    const credential = asStored(
      await openBadgeCredential(handle.db, { ...certificate, validUntil: "2026-03-13" }, options),
    );
    expect(credential.validUntil).toBe("2026-03-13T23:59:59+05:30");
    const didDocument = await issuerDidDocument(handle.db, appUrl);
    const on = (instant: string) => verifyOpenBadgeCredential(credential, { didDocument, now: new Date(instant) });
    expect((await on("2026-03-13T18:00:00Z")).verified).toBe(true);
    const expired = await on("2026-03-14T00:00:00Z");
    expect(expired.verified).toBe(false);
    expect(expired.errors.join(" ")).toMatch(/after "validUntil"/);
  });

  it("never reaches the network: the loader refuses any URL it was not given", async () => {
    const load = offlineDocumentLoader();
    await expect(load("https://www.w3.org/ns/credentials/v2")).resolves.toMatchObject({
      documentUrl: "https://www.w3.org/ns/credentials/v2",
    });
    await expect(load("https://w3id.org/security/suites/ed25519-2020/v1")).rejects.toThrow(/Refused to load/);
    await expect(load("did:web:upskill.example")).rejects.toThrow(/Refused to load/);

    // A credential that names a context of someone else's fails on that, instead of fetching it.
    const credential = asStored(await openBadgeCredential(handle.db, certificate, options));
    credential["@context"].push("https://contexts.example/extra.json");
    const check = await verifyOpenBadgeCredential(credential, {
      didDocument: await issuerDidDocument(handle.db, appUrl),
    });
    expect(check.verified).toBe(false);
    expect(check.errors.join(" ")).toMatch(/Refused to load https:\/\/contexts\.example\/extra\.json/);
  });

  it("publishes a DID document that is well-formed JSON-LD with every key as a Multikey", async () => {
    await activeSigningKey(handle.db);
    await rotateSigningKey(handle.db);
    const didDocument = asStored(await issuerDidDocument(handle.db, appUrl));
    expect(didDocument.verificationMethod).toHaveLength(2);
    for (const method of didDocument.verificationMethod) {
      expect(method).toMatchObject({ type: "Multikey", controller: "did:web:upskill.example" });
      expect(method.publicKeyMultibase).toMatch(/^z6Mk/);
    }
    // Safe mode throws on any term the contexts do not define.
    const expanded = await jsonld.expand(didDocument, { documentLoader: offlineDocumentLoader(), safe: true });
    expect(JSON.stringify(expanded)).toContain("https://w3id.org/security#publicKeyMultibase");
  });

  it("lists the status indexes of revoked documents, and none before the document table exists", async () => {
    // Without migrations: only the two columns the query reads, whatever the documents' own
    // migration adds to the table.
    const bare = await database.open({ migrate: false });
    try {
      expect(await revokedStatusIndexes(bare.db)).toEqual([]);
      await sql`create table "document" ("statusIndex" integer not null unique, "revokedAt" text)`.execute(bare.db);
      await sql`insert into "document" values (3, null), (5, '2025-04-01T10:00:00.000Z'), (1, '2025-04-02T10:00:00.000Z')`.execute(
        bare.db,
      );
      expect(await revokedStatusIndexes(bare.db)).toEqual([1, 5]);
    } finally {
      await bare.dispose();
    }
  });
});

it("names the issuer by did:web of APP_URL's host, port and path", () => {
  expect(issuerDid("https://upskill.example")).toBe("did:web:upskill.example");
  expect(issuerDid("http://localhost:3000")).toBe("did:web:localhost%3A3000");
  expect(issuerDid("https://example.org/institute/upskill")).toBe("did:web:example.org:institute:upskill");
});
