import {
  CompactSign,
  compactVerify,
  createLocalJWKSet,
  decodeProtectedHeader,
  importJWK,
  type JSONWebKeySet,
} from "jose";
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  activeSigningKey,
  claimNames,
  documentJwsType,
  publishedKeySet,
  readDocumentClaims,
  rotateSigningKey,
  signDocumentClaims,
  type DocumentClaims,
} from "~/documents/signing.server";
import { describeEachDatabase, type TestDatabaseHandle } from "../support/databases";

const claims: DocumentClaims = {
  code: "UPS-7K3M-Q9PX-2D4F-HW8R",
  kind: "certificate",
  holder: "Asha Rao",
  title: "Python for Data Analysis",
  issuedOn: "2025-03-14",
  validUntil: "2027-03-13",
  issuer: "https://upskill.example",
};

/** The key set as a verifier gets it: the JSON of /.well-known/jwks.json, nothing else. */
const asFetched = (keySet: JSONWebKeySet) => JSON.parse(JSON.stringify(keySet)) as JSONWebKeySet;

describeEachDatabase("document signatures", (database) => {
  let handle: TestDatabaseHandle;
  beforeEach(async () => {
    handle = await database.open();
  });
  afterEach(() => handle.dispose());

  it("signs a compact JWS that anyone verifies with the published key set alone", async () => {
    const jws = await signDocumentClaims(handle.db, claims);
    const keySet = asFetched(await publishedKeySet(handle.db));

    // What a third party does with jose and the JWKS: no call into this app.
    const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(keySet));
    expect(protectedHeader).toEqual({ alg: "EdDSA", kid: keySet.keys[0]!.kid, typ: documentJwsType });
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({
      [claimNames.code]: claims.code,
      [claimNames.kind]: "certificate",
      [claimNames.holder]: "Asha Rao",
      [claimNames.title]: "Python for Data Analysis",
      [claimNames.issuedOn]: "2025-03-14",
      [claimNames.validUntil]: "2027-03-13",
      [claimNames.issuer]: "https://upskill.example",
    });
    expect(await readDocumentClaims(jws, keySet)).toEqual({ ...claims, kid: keySet.keys[0]!.kid });

    // The published set holds public halves only.
    expect(keySet.keys).toHaveLength(1);
    expect(keySet.keys[0]).toEqual({
      kty: "OKP",
      crv: "Ed25519",
      x: expect.any(String),
      kid: expect.any(String),
      alg: "EdDSA",
      use: "sig",
    });
  });

  it("leaves out a validUntil that is null, and refuses claims that are not a document's", async () => {
    const jws = await signDocumentClaims(handle.db, { ...claims, kind: "offer-letter", validUntil: null });
    const read = await readDocumentClaims(jws, await publishedKeySet(handle.db));
    expect(read).toMatchObject({ kind: "offer-letter", validUntil: null });
    expect(JSON.parse(Buffer.from(jws.split(".")[1]!, "base64url").toString())).not.toHaveProperty(
      claimNames.validUntil,
    );
    await expect(signDocumentClaims(handle.db, { ...claims, issuedOn: "14/03/2025" })).rejects.toThrow();
    await expect(signDocumentClaims(handle.db, { ...claims, issuer: "javascript:alert(1)" })).rejects.toThrow();
  });

  it("refuses a changed payload, a signature from another database's key and another typ", async () => {
    const jws = await signDocumentClaims(handle.db, claims);
    const keySet = await publishedKeySet(handle.db);
    const [header, , signature] = jws.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(jws.split(".")[1]!, "base64url").toString()), h: "Someone Else" }),
    ).toString("base64url");
    await expect(readDocumentClaims(`${header}.${forged}.${signature}`, keySet)).rejects.toThrow(/signature/i);

    const key = await activeSigningKey(handle.db);
    const untyped = await new CompactSign(Buffer.from(jws.split(".")[1]!, "base64url"))
      .setProtectedHeader({ alg: "EdDSA", kid: key.kid, typ: "JWT" })
      .sign(await importJWK(key.privateJwk, "EdDSA"));
    await expect(readDocumentClaims(untyped, keySet)).rejects.toThrow(/not a document signature/i);

    const other = await database.open();
    try {
      const foreign = await signDocumentClaims(other.db, claims);
      await expect(readDocumentClaims(foreign, keySet)).rejects.toThrow(/no applicable key|matching key/i);
    } finally {
      await other.dispose();
    }
  });

  it("rotates: new signatures carry the new kid, old ones still verify with the key set", async () => {
    const before = await signDocumentClaims(handle.db, claims);
    const oldKid = decodeProtectedHeader(before).kid;
    const { active, retired } = await rotateSigningKey(handle.db);
    expect(retired).toBe(oldKid);
    expect(active).not.toBe(oldKid);

    const after = await signDocumentClaims(handle.db, { ...claims, code: "UPS-0000-1111-2222-3333" });
    expect(decodeProtectedHeader(after).kid).toBe(active);

    const keySet = asFetched(await publishedKeySet(handle.db));
    expect(keySet.keys.map((key) => key.kid).sort()).toEqual([oldKid, active].sort());
    expect((await readDocumentClaims(before, keySet)).kid).toBe(oldKid);
    expect((await readDocumentClaims(after, keySet)).kid).toBe(active);

    const rows = await handle.db.selectFrom("signing_key").select(["kid", "retiredAt"]).execute();
    expect(rows.filter((row) => row.retiredAt === null).map((row) => row.kid)).toEqual([active]);
  });

  it("creates one key when two instances sign for the first time at once", async () => {
    const second = await handle.reopen();
    try {
      const kids = await Promise.all(
        [handle.db, second.db, handle.db, second.db].map(async (db) => (await activeSigningKey(db)).kid),
      );
      expect(new Set(kids).size).toBe(1);
      const rows = await handle.db.selectFrom("signing_key").select("kid").execute();
      expect(rows.map((row) => row.kid)).toEqual([kids[0]]);
    } finally {
      await second.close();
    }
  });

  it("never has two active keys: concurrent rotations end with one, and the table refuses a second", async () => {
    await activeSigningKey(handle.db);
    const second = await handle.reopen();
    try {
      const outcomes = await Promise.allSettled([rotateSigningKey(handle.db), rotateSigningKey(second.db)]);
      expect(outcomes.some((outcome) => outcome.status === "fulfilled")).toBe(true);
    } finally {
      await second.close();
    }
    const active = await handle.db.selectFrom("signing_key").select("kid").where("retiredAt", "is", null).execute();
    expect(active).toHaveLength(1);
    await expect(
      handle.db
        .insertInto("signing_key")
        .values({
          kid: "extra",
          publicJwk: "{}",
          privateJwk: "{}",
          createdAt: new Date().toISOString(),
          retiredAt: null,
        })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});
