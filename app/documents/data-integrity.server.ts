import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import * as vc from "@digitalbazaar/vc";
import type { Db } from "~/db/database.server";
import { contextUrls, offlineDocumentLoader } from "./json-ld.server";
import { activeSigningKey, signingKeys } from "./signing.server";

/**
 * The issuer's DID: did:web of APP_URL's host (a port is percent-encoded, a path becomes more
 * colon-separated parts). Resolvers fetch its document from https://<host>/.well-known/did.json,
 * which /.well-known/did.json serves from the same keys as /.well-known/jwks.json.
 */
export function issuerDid(appUrl: string): string {
  const url = new URL(appUrl);
  const path = url.pathname.split("/").filter(Boolean).map(encodeURIComponent);
  return ["did:web", encodeURIComponent(url.host), ...path].join(":");
}

interface VerificationMethod {
  id: string;
  type: "Multikey";
  controller: string;
  publicKeyMultibase: string;
}

export interface DidDocument {
  "@context": string[];
  id: string;
  verificationMethod: VerificationMethod[];
  assertionMethod: string[];
}

/**
 * The issuer's DID document: every signing key (retired ones too, so credentials they signed
 * keep verifying) as a Multikey, each allowed to assert (sign credentials).
 */
export async function issuerDidDocument(db: Db, appUrl: string): Promise<DidDocument> {
  await activeSigningKey(db);
  const did = issuerDid(appUrl);
  const verificationMethod = await Promise.all(
    (await signingKeys(db)).map(async (key): Promise<VerificationMethod> => {
      const multikey = await Ed25519Multikey.fromJwk({ jwk: key.publicJwk, id: `${did}#${key.kid}`, controller: did });
      return {
        id: `${did}#${key.kid}`,
        type: "Multikey",
        controller: did,
        publicKeyMultibase: multikey.publicKeyMultibase,
      };
    }),
  );
  return {
    "@context": [contextUrls.did, contextUrls.multikey],
    id: did,
    verificationMethod,
    assertionMethod: verificationMethod.map((method) => method.id),
  };
}

/** What the loader answers for a DID document: the document, and each key by its own id. */
function didDocuments(didDocument: DidDocument): [string, unknown][] {
  return [
    [didDocument.id, didDocument],
    ...didDocument.verificationMethod.map((method): [string, unknown] => [
      method.id,
      { "@context": contextUrls.multikey, ...method },
    ]),
  ];
}

/** Adds an eddsa-rdfc-2022 Data Integrity proof, made with the active signing key. */
export async function signCredential<T extends { issuer: string | { id: string } }>(
  db: Db,
  credential: T,
): Promise<T & { proof: object }> {
  const issuer = typeof credential.issuer === "string" ? credential.issuer : credential.issuer.id;
  const key = await activeSigningKey(db);
  const keyPair = await Ed25519Multikey.fromJwk({
    jwk: key.privateJwk,
    secretKey: true,
    id: `${issuer}#${key.kid}`,
    controller: issuer,
  });
  const suite = new DataIntegrityProof({ signer: keyPair.signer(), cryptosuite: eddsaRdfc2022 });
  return vc.issue({ credential, suite, documentLoader: offlineDocumentLoader() });
}

export interface CredentialCheck {
  verified: boolean;
  /** Why not, in the libraries' words (empty when verified). */
  errors: string[];
}

/**
 * Checks a credential's Data Integrity proof against the given DID document, offline: the
 * loader knows the bundled contexts and this document, nothing else. `statusListCredentials`
 * are answered by their URLs when a status check (`checkStatus`) loads them.
 */
export async function verifyCredentialOffline(
  credential: object,
  options: {
    didDocument: DidDocument;
    statusListCredentials?: object[];
    checkStatus?: (options: { credential: object }) => Promise<{ verified: boolean; error?: unknown }>;
    now?: Date;
  },
): Promise<CredentialCheck> {
  const documents = new Map<string, unknown>(didDocuments(options.didDocument));
  for (const list of options.statusListCredentials ?? []) documents.set((list as { id: string }).id, list);
  try {
    const result = await vc.verifyCredential({
      credential,
      suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
      documentLoader: offlineDocumentLoader(documents),
      ...(options.checkStatus ? { checkStatus: options.checkStatus } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    if (result.verified) return { verified: true, errors: [] };
    const errors = [result.error, ...(result.results ?? []).map((r) => r.error), result.statusResult?.error]
      .flatMap((error) => flattenErrors(error))
      .filter((message, index, all) => all.indexOf(message) === index);
    return { verified: false, errors: errors.length ? errors : ["The credential did not verify."] };
  } catch (error) {
    return { verified: false, errors: flattenErrors(error) };
  }
}

/** The messages of an error and of the errors inside it (jsonld wraps the loader's in details.cause). */
function flattenErrors(error: unknown): string[] {
  if (!error) return [];
  if (Array.isArray(error)) return error.flatMap(flattenErrors);
  const { errors, details, cause } = error as { errors?: unknown; details?: { cause?: unknown }; cause?: unknown };
  if (Array.isArray(errors) && errors.length) return errors.flatMap(flattenErrors);
  const message = error instanceof Error ? error.message : String(error);
  return [message, ...flattenErrors(details?.cause ?? cause)];
}
