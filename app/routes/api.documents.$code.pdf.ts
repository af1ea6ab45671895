import { Readable } from "node:stream";
import { hasAccess } from "~/core/access";
import { getSessionUser, refuseJson } from "~/accounts/permissions.server";
import { normalizeCode } from "~/documents/code";
import { documentPdf } from "~/documents/documents.server";
import { getServices } from "~/platform/services.server";
import type { Route } from "./+types/api.documents.$code.pdf";
import { attachmentDisposition } from "~/http/attachment";

const notFound = "No such document.";

/**
 * A document's PDF, for its holder and for staff. Anyone else, signed in or not, is told there
 * is no such document, as for a code that names none.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const code = normalizeCode(params.code);
  if (!user || !code) return refuseJson(404, notFound);
  const { database, storage } = await getServices();
  const pdf = await documentPdf({ db: database.db, storage }, code, {
    id: user.id,
    isStaff: hasAccess(user.level, "staff"),
  });
  if (!pdf) return refuseJson(404, notFound);
  return new Response(Readable.toWeb(pdf.stream) as ReadableStream, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": attachmentDisposition(pdf.fileName),
      "Content-Length": String(pdf.size),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
