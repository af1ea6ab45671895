import { gunzipSync, gzipSync } from "node:zlib";
import { PostgresAdapter, sql } from "kysely";
import type { Db } from "~/db/database.server";
import { issuerDid, signCredential } from "./data-integrity.server";
import { contextUrls } from "./json-ld.server";
import { activeSigningKey } from "./signing.server";

/**
 * Revocation as a W3C Bitstring Status List: one list for every document, a bit per document
 * at its statusIndex, 1 when revoked. At least 131,072 bits (16 KB before compression), the
 * spec's minimum, so that a list tells nobody how many documents there are.
 */
export const minimumListBits = 131_072;

/** The status list credential's address (the route /credentials/status/1 serves it). */
export const statusListUrl = (appUrl: string) => `${appUrl}/credentials/status/1`;

/** A credential's credentialStatus: its bit in the revocation list. */
export function revocationStatusEntry(appUrl: string, statusIndex: number) {
  return {
    id: `${statusListUrl(appUrl)}#${statusIndex}`,
    type: "BitstringStatusListEntry",
    statusPurpose: "revocation",
    statusListIndex: String(statusIndex),
    statusListCredential: statusListUrl(appUrl),
  };
}

/**
 * The list's encodedList: the bits (index 0 is the first byte's most significant bit),
 * GZIP-compressed, base64url without padding, with the multibase prefix "u".
 */
export function encodeStatusList(setIndexes: readonly number[]): string {
  const highest = setIndexes.reduce((max, index) => Math.max(max, index), -1);
  const bits = Math.max(minimumListBits, Math.ceil((highest + 1) / minimumListBits) * minimumListBits);
  const list = new Uint8Array(bits / 8);
  for (const index of setIndexes) {
    if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`Not a status index: ${index}`);
    list[index >> 3]! |= 0x80 >> (index & 7);
  }
  return `u${gzipSync(list).toString("base64url")}`;
}

/** Whether the bit at index is set in an encodedList. */
export function isStatusSet(encodedList: string, index: number): boolean {
  if (!encodedList.startsWith("u")) throw new Error("The status list is not base64url multibase.");
  const list = gunzipSync(Buffer.from(encodedList.slice(1), "base64url"));
  if (list.length * 8 < minimumListBits) throw new Error("The status list is shorter than 131,072 bits.");
  if (!Number.isSafeInteger(index) || index < 0 || index >= list.length * 8) {
    throw new Error(`The status index ${index} is outside the list.`);
  }
  return (list[index >> 3]! & (0x80 >> (index & 7))) !== 0;
}

export interface StatusListCredential {
  "@context": string[];
  id: string;
  type: string[];
  issuer: string;
  validFrom: string;
  credentialSubject: { id: string; type: "BitstringStatusList"; statusPurpose: "revocation"; encodedList: string };
  proof: object;
}

let lastSigned: { key: string; credential: StatusListCredential } | undefined;

/**
 * The signed BitstringStatusListCredential with the given indexes revoked. The last one signed
 * is kept and served again while neither the list nor the issuer changed (signing canonicalizes
 * the whole credential, ~20 ms); a rotation makes a new one, signed with the new key.
 */
export async function statusListCredential(
  db: Db,
  appUrl: string,
  revokedIndexes: readonly number[],
): Promise<StatusListCredential> {
  const encodedList = encodeStatusList(revokedIndexes);
  const { kid } = await activeSigningKey(db);
  const cacheKey = `${appUrl}|${kid}|${encodedList}`;
  if (lastSigned?.key === cacheKey) return lastSigned.credential;
  const id = statusListUrl(appUrl);
  const credential = await signCredential(db, {
    "@context": [contextUrls.credentialsV2],
    id,
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: issuerDid(appUrl),
    validFrom: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    credentialSubject: {
      id: `${id}#list`,
      type: "BitstringStatusList" as const,
      statusPurpose: "revocation" as const,
      encodedList,
    },
  });
  lastSigned = { key: cacheKey, credential };
  return credential;
}

const tableKnown = new WeakSet<Db>();

/** Whether this database (on PostgreSQL: this connection's schema) has the document table yet. */
async function hasDocumentTable(db: Db): Promise<boolean> {
  if (tableKnown.has(db)) return true;
  const { rows } =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? await sql`select 1 from information_schema.tables where table_schema = current_schema() and table_name = 'document'`.execute(
          db,
        )
      : await sql`select 1 from sqlite_master where type = 'table' and name = 'document'`.execute(db);
  if (rows.length > 0) tableKnown.add(db);
  return rows.length > 0;
}

/**
 * The statusIndex of every revoked document (`document.revokedAt` set). Before the documents'
 * migration has made the table, there are none.
 */
export async function revokedStatusIndexes(db: Db): Promise<number[]> {
  if (!(await hasDocumentTable(db))) return [];
  const { rows } = await sql<{ statusIndex: number | string }>`
    select "statusIndex" from "document" where "revokedAt" is not null order by "statusIndex"`.execute(db);
  return rows.map((row) => Number(row.statusIndex));
}
