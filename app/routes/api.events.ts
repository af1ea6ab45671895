import { onShutdown } from "~/http/http-server.server";
import { getLearnerServices } from "~/learners/learner-services.server";
import { userEventStream } from "~/realtime/user-stream.server";
import type { Route } from "./+types/api.events";

/**
 * The signed-in user's server-sent event stream: only their own events (and, for staff, the
 * staff topic). One per open tab; ended by the tab closing, the session or role changing, or
 * the server stopping.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const services = await getLearnerServices();
  const user = await services.authenticate(request);
  if (!user) return Response.json({ message: "Please log in." }, { status: 401 });
  return userEventStream({ bus: services.bus, streams: services.streams, user, signal: request.signal, onShutdown });
}
