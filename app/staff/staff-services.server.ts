import { getAuth } from "~/accounts/auth.server";
import { getLearnerServices } from "~/learners/learner-services.server";
import { getServices } from "~/platform/services.server";
import { handleStaffRequest, type StaffHttpDeps } from "./staff-http.server";

/** The staff endpoints' parts for this process: the app's database, auth and event bus. */
async function staffDeps(): Promise<StaffHttpDeps> {
  // The learner services own the process's one event bus: sharing it is what makes a send
  // reach the learner's open event stream.
  const [{ config, database }, auth, { bus }] = await Promise.all([getServices(), getAuth(), getLearnerServices()]);
  return { db: database.db, bus, auth, appUrl: config.appUrl };
}

/** Answers a request under /api/staff/ (the resource route hands every one here). */
export async function staffApi(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/^\/api\/staff\/?/, "");
  return handleStaffRequest(await staffDeps(), request, path);
}
