import { Readable } from "node:stream";
import { authorize, refuseJson } from "~/accounts/permissions.server";
import { hasAccess } from "~/core/access";
import { attachmentDisposition } from "~/http/attachment";
import { offerFile } from "~/placement/offers.server";
import { getServices } from "~/platform/services.server";
import type { Route } from "./+types/api.placement.offers.$id.file";

/** An offer letter a learner uploaded: for them and for staff, to nobody else. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await authorize(request);
  if (!access.ok) return refuseJson(access.status, access.message);
  const { database, storage } = await getServices();
  const file = await offerFile(database.db, storage, params.id);
  if (!file || (file.learnerId !== access.user.id && !hasAccess(access.user.level, "staff"))) {
    file?.stream.destroy();
    return refuseJson(404, "No such offer letter.");
  }
  return new Response(Readable.toWeb(file.stream) as ReadableStream, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(file.size),
      "Content-Disposition": attachmentDisposition(file.fileName),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
