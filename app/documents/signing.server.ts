import { generateKeyPairSync } from "node:crypto";
import {
  CompactSign,
  calculateJwkThumbprint,
  compactVerify,
  createLocalJWKSet,
  importJWK,
  type JSONWebKeySet,
  type JWK,
} from "jose";
import { z } from "zod";
import type { Db } from "~/db/database.server";

/** What a document's signature vouches for: the fields printed on it that matter. */
export interface DocumentClaims {
  code: string;
  kind: "certificate" | "offer-letter";
  holder: string;
  title: string;
  /** YYYY-MM-DD. */
  issuedOn: string;
  /** YYYY-MM-DD, or null when it does not expire. */
  validUntil: string | null;
  /** The issuer's URL (APP_URL when it was issued). */
  issuer: string;
}

/**
 * The JWS payload's claim names, short as the JWS once rode whole in the QR code (now only its
 * signature does); `iss` is the registered JWT name. docs/architecture.md lists them, and how
 * to rebuild the payload from a printed document, for anyone checking one.
 */
export const claimNames = {
  code: "cd",
  kind: "k",
  holder: "h",
  title: "t",
  issuedOn: "d",
  validUntil: "u",
  issuer: "iss",
} as const satisfies Record<keyof DocumentClaims, string>;

/** The JWS header's typ: tells these apart from any other JWS signed with the same keys. */
export const documentJwsType = "upskill-document+jws";

const algorithm = "EdDSA";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD");
const text = z.string().min(1).max(500);
const payloadSchema = z.object({
  [claimNames.code]: z.string().min(1).max(40),
  [claimNames.kind]: z.enum(["certificate", "offer-letter"]),
  [claimNames.holder]: text,
  [claimNames.title]: text,
  [claimNames.issuedOn]: day,
  [claimNames.validUntil]: day.optional(),
  [claimNames.issuer]: z.url({ protocol: /^https?$/ }).max(500),
});

export interface SigningKey {
  kid: string;
  /** The public JWK with kid, alg and use, as published. */
  publicJwk: JWK;
  /** The private JWK (with "d"). Never logged. */
  privateJwk: JWK;
  createdAt: string;
  retiredAt: string | null;
}

type KeyRow = { kid: string; publicJwk: string; privateJwk: string; createdAt: string; retiredAt: string | null };

const fromRow = (row: KeyRow): SigningKey => ({
  kid: row.kid,
  publicJwk: JSON.parse(row.publicJwk) as JWK,
  privateJwk: JSON.parse(row.privateJwk) as JWK,
  createdAt: row.createdAt,
  retiredAt: row.retiredAt,
});

/** A new Ed25519 key pair as a row; its kid is the public key's RFC 7638 thumbprint. */
async function newKeyRow(now: string): Promise<KeyRow> {
  const { privateKey } = generateKeyPairSync("ed25519");
  const { kty, crv, x, d } = privateKey.export({ format: "jwk" });
  const kid = await calculateJwkThumbprint({ kty, crv, x } as JWK, "sha256");
  const publicJwk = { kty, crv, x, kid, alg: algorithm, use: "sig" };
  return {
    kid,
    publicJwk: JSON.stringify(publicJwk),
    privateJwk: JSON.stringify({ ...publicJwk, d }),
    createdAt: now,
    retiredAt: null,
  };
}

const readActiveKey = (db: Db) =>
  db.selectFrom("signing_key").selectAll().where("retiredAt", "is", null).executeTakeFirst();

/**
 * The key that signs now. The first call on a database creates it; when several instances do
 * that at once, the unique index on active keys lets one insert win and the others read it.
 */
export async function activeSigningKey(db: Db): Promise<SigningKey> {
  const existing = await readActiveKey(db);
  if (existing) return fromRow(existing);
  await db
    .insertInto("signing_key")
    .values(await newKeyRow(new Date().toISOString()))
    .onConflict((oc) => oc.doNothing())
    .execute();
  return fromRow((await readActiveKey(db))!);
}

/**
 * Makes a new active key and retires the one before (still published, so what it signed keeps
 * verifying). Returns both kids; `retired` is null when there was no key yet.
 */
export async function rotateSigningKey(db: Db): Promise<{ active: string; retired: string | null }> {
  const row = await newKeyRow(new Date().toISOString());
  return db.transaction().execute(async (trx) => {
    const retired = await trx
      .updateTable("signing_key")
      .set({ retiredAt: row.createdAt })
      .where("retiredAt", "is", null)
      .returning("kid")
      .executeTakeFirst();
    // A rotation running at the same moment elsewhere makes this insert fail on the unique
    // index, and this transaction rolls back: one new key, never two.
    await trx.insertInto("signing_key").values(row).execute();
    return { active: row.kid, retired: retired?.kid ?? null };
  });
}

/** Every key, oldest first: the active one and the retired ones. */
export async function signingKeys(db: Db): Promise<SigningKey[]> {
  const rows = await db.selectFrom("signing_key").selectAll().orderBy("createdAt").orderBy("kid").execute();
  return rows.map(fromRow);
}

/**
 * The JSON Web Key Set served at /.well-known/jwks.json: the public half of every key, retired
 * ones included, so that every document ever signed can be checked with it alone.
 */
export async function publishedKeySet(db: Db): Promise<JSONWebKeySet> {
  await activeSigningKey(db);
  return { keys: (await signingKeys(db)).map((key) => key.publicJwk) };
}

const encoder = new TextEncoder();

/** A compact JWS (EdDSA, Ed25519; header alg, kid, typ) of the document's essential fields. */
export async function signDocumentClaims(db: Db, claims: DocumentClaims): Promise<string> {
  const payload = payloadSchema.parse({
    [claimNames.code]: claims.code,
    [claimNames.kind]: claims.kind,
    [claimNames.holder]: claims.holder,
    [claimNames.title]: claims.title,
    [claimNames.issuedOn]: claims.issuedOn,
    ...(claims.validUntil ? { [claimNames.validUntil]: claims.validUntil } : {}),
    [claimNames.issuer]: claims.issuer,
  });
  const key = await activeSigningKey(db);
  return new CompactSign(encoder.encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: algorithm, kid: key.kid, typ: documentJwsType })
    .sign(await importJWK(key.privateJwk, algorithm));
}

/**
 * The claims of a document JWS, checked against a published key set and nothing else (what a
 * third party does with /.well-known/jwks.json). Throws when the signature, the key or the
 * payload is not right.
 */
export async function readDocumentClaims(
  jws: string,
  keySet: JSONWebKeySet,
): Promise<DocumentClaims & { kid: string }> {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(keySet), {
    algorithms: [algorithm],
  });
  if (protectedHeader.typ !== documentJwsType)
    throw new Error(`Not a document signature (typ ${protectedHeader.typ}).`);
  const claims = payloadSchema.parse(JSON.parse(new TextDecoder().decode(payload)));
  return {
    kid: protectedHeader.kid!,
    code: claims[claimNames.code],
    kind: claims[claimNames.kind],
    holder: claims[claimNames.holder],
    title: claims[claimNames.title],
    issuedOn: claims[claimNames.issuedOn],
    validUntil: claims[claimNames.validUntil] ?? null,
    issuer: claims[claimNames.issuer],
  };
}
