import { CLIENT_IP_HEADER } from "~/http/request-context";
import { normalizeCode } from "~/documents/code";
import { storedOpenBadge } from "~/documents/open-badge.server";
import { publicDocumentHeaders } from "~/documents/public-documents.server";
import { verifyMessages } from "~/documents/verify-messages";
import { verifyDocument } from "~/documents/verify.server";
import { getServices } from "~/platform/services.server";
import type { Route } from "./+types/verify.$code.credential";

const notFound = () => Response.json({ message: verifyMessages.notFound }, { status: 404 });

/**
 * A certificate as an Open Badges 3.0 credential with its Data Integrity proof, exactly as it
 * was signed and stored. Looked up like the verify page (wrong codes count against the
 * client); offer letters are not badges.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const code = normalizeCode(params.code);
  if (code === null) return notFound();
  const { database, config } = await getServices();
  const outcome = await verifyDocument(database.db, code, request.headers.get(CLIENT_IP_HEADER) ?? "unknown");
  if (!outcome.found) {
    return outcome.reason === "too-many"
      ? Response.json({ message: verifyMessages.tooManyGuesses }, { status: 429 })
      : notFound();
  }
  const credential = await storedOpenBadge(database.db, code, config.instituteTimeZone);
  if (credential === null) return notFound();
  return new Response(credential, { headers: publicDocumentHeaders("application/vc") });
}
