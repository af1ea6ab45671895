/**
 * Headers of the documents anyone checks a signature with (keys, the issuer's DID document,
 * the status list): cached for five minutes (a rotation or a revocation shows within that) and
 * readable from any site, so that a verifier running in a browser elsewhere can fetch them.
 */
export const publicDocumentHeaders = (contentType: string) => ({
  "Content-Type": contentType,
  "Cache-Control": "public, max-age=300",
  "Access-Control-Allow-Origin": "*",
});
