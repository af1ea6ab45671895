import { publicDocumentHeaders } from "~/documents/public-documents.server";
import { publishedKeySet } from "~/documents/signing.server";
import { getServices } from "~/platform/services.server";

/** The public keys of every document signature, retired keys included (RFC 7517 key set). */
export async function loader() {
  const { database } = await getServices();
  return Response.json(await publishedKeySet(database.db), {
    headers: publicDocumentHeaders("application/jwk-set+json"),
  });
}
