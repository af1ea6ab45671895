import { issuerDidDocument } from "~/documents/data-integrity.server";
import { publicDocumentHeaders } from "~/documents/public-documents.server";
import { getServices } from "~/platform/services.server";

/** The issuer's did:web document: the keys that sign its Open Badges credentials. */
export async function loader() {
  const { config, database } = await getServices();
  return Response.json(await issuerDidDocument(database.db, config.appUrl), {
    headers: publicDocumentHeaders("application/did+ld+json"),
  });
}
