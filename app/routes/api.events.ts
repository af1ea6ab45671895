import { onShutdown } from "~/http/http-server.server";
import { getLearnerServices } from "~/learners/learner-services.server";
import { staffTopic, userTopic } from "~/realtime/events";
import { eventStreamResponse } from "~/realtime/event-stream.server";
import type { Route } from "./+types/api.events";

/**
 * The signed-in user's server-sent event stream: only their own events (and, for staff, the
 * staff topic). One per open tab; ended by the tab closing or the server stopping.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const services = await getLearnerServices();
  const user = await services.authenticate(request);
  if (!user) return Response.json({ message: "Please log in." }, { status: 401 });
  return eventStreamResponse({
    bus: services.bus,
    topics: user.role ? [userTopic(user.id), staffTopic] : [userTopic(user.id)],
    signal: request.signal,
    onShutdown,
  });
}
