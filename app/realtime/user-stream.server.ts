import type { SessionUser } from "~/core/people";
import type { EventBus } from "./bus.server";
import { eventStreamResponse } from "./event-stream.server";
import { staffTopic, userTopic } from "./events";
import type { StreamRegistry } from "./stream-registry.server";

export const tooManyStreams = "Too many open live-update connections. Close some tabs and reload.";

/**
 * The signed-in user's event stream: their own events, and staff's for staff. Registered with
 * the instance's streams, so it is refused past the per-user cap and ended when the session or
 * the role changes.
 */
export function userEventStream(options: {
  bus: EventBus;
  streams: StreamRegistry;
  user: SessionUser;
  signal: AbortSignal;
  heartbeatMs?: number;
  onShutdown?: (hook: () => void) => () => void;
}): Response {
  const { user } = options;
  let endStream = () => {};
  const release = options.streams.add({ userId: user.id, sessionId: user.sessionId, role: user.role }, () =>
    endStream(),
  );
  if (!release) return Response.json({ message: tooManyStreams }, { status: 429 });
  return eventStreamResponse({
    bus: options.bus,
    topics: user.level === "learner" ? [userTopic(user.id)] : [userTopic(user.id), staffTopic],
    signal: options.signal,
    heartbeatMs: options.heartbeatMs,
    endWhen: [
      (end) => {
        endStream = end;
        return release;
      },
      ...(options.onShutdown ? [options.onShutdown] : []),
    ],
  });
}
