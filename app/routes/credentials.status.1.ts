import { publicDocumentHeaders } from "~/documents/public-documents.server";
import { revokedStatusIndexes, statusListCredential } from "~/documents/status-list.server";
import { getServices } from "~/platform/services.server";

/** The signed revocation list (Bitstring Status List) that every credential's status names. */
export async function loader() {
  const { config, database } = await getServices();
  const credential = await statusListCredential(database.db, config.appUrl, await revokedStatusIndexes(database.db));
  return Response.json(credential, { headers: publicDocumentHeaders("application/vc") });
}
