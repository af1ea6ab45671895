import { Readable } from "node:stream";
import { authorize, refuseJson } from "~/accounts/permissions.server";
import { learnerDataArchive } from "~/learners/data-export.server";
import { getServices } from "~/platform/services.server";
import { currentInstitute } from "~/site/sections/institute.server";
import { consumeAttempt } from "~/security/rate-limit.server";
import type { Route } from "./+types/api.my-data";

/** Each archive reads everything about a person: a few an hour is plenty. */
const exportLimit = { max: 5, windowMs: 60 * 60_000 };

/** "Download my data": the signed-in person's own data, never anyone else's (no id is taken). */
export async function loader({ request }: Route.LoaderArgs) {
  const access = await authorize(request);
  if (!access.ok) return refuseJson(access.status, access.message);
  const { database, storage, config } = await getServices();
  if (!(await consumeAttempt(database.db, `data-export:${access.user.id}`, exportLimit))) {
    return refuseJson(429, "You downloaded your data several times in the last hour. Please try again later.");
  }
  const now = new Date();
  const { name: siteName } = await currentInstitute(database.db, config.site);
  const archive = await learnerDataArchive({ db: database.db, storage, siteName }, access.user.id, now);
  const name = `${siteName}-data-${access.user.username || "account"}-${now.toISOString().slice(0, 10)}.zip`
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .slice(0, 120);
  return new Response(Readable.toWeb(archive) as ReadableStream, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
