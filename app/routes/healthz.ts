import { pingDatabase } from "~/db/database.server";
import { getServices } from "~/platform/services.server";

/** 200 when the database answers, 503 otherwise. */
export async function loader() {
  let ok: boolean;
  try {
    const { database } = await getServices();
    ok = await pingDatabase(database.db);
  } catch {
    ok = false;
  }
  return Response.json(
    { status: ok ? "ok" : "unavailable", database: ok ? "up" : "down" },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
