import { authorize, refuseJson } from "~/accounts/permissions.server";
import { onShutdown } from "~/http/shutdown.server";
import { getServices } from "~/platform/services.server";
import { userEventStream } from "~/realtime/user-stream.server";
import type { Route } from "./+types/api.events";

/**
 * The signed-in user's server-sent event stream: only their own events (and, for staff, the
 * staff topic). One per open tab; ended by the tab closing, the session or role changing, or
 * the server stopping.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const access = await authorize(request);
  if (!access.ok) return refuseJson(access.status, access.message);
  const { bus, streams } = await getServices();
  return userEventStream({ bus, streams, user: access.user, signal: request.signal, onShutdown });
}
