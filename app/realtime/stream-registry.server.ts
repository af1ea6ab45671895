import type { Db } from "~/db/database.server";
import { accessLevel, type AccessLevel } from "~/core/access";
import { maxStreamsPerUser } from "./events";

/** Whose stream it is: the session it was opened with, and the role the user had then. */
export interface StreamOwner {
  userId: string;
  sessionId: string;
  role: string | null;
}

interface OpenStream {
  owner: StreamOwner;
  level: AccessLevel;
  end(): void;
}

/** How often open streams are checked against their session and role. */
export const streamCheckIntervalMs = 3_000;

/**
 * The open event streams of this instance. It caps them per user, and ends a stream soon
 * after its session is signed out, revoked or expired, or its user's role level changes,
 * whichever instance or command made the change: one query every few seconds checks them
 * all, rather than one per stream.
 */
export class StreamRegistry {
  private readonly byUser = new Map<string, Set<OpenStream>>();

  constructor(
    private readonly db: Db,
    readonly maxPerUser = maxStreamsPerUser,
  ) {}

  get size(): number {
    let total = 0;
    for (const streams of this.byUser.values()) total += streams.size;
    return total;
  }

  /** Registers a stream and returns its removal; null when its user already has the maximum open. */
  add(owner: StreamOwner, end: () => void): (() => void) | null {
    let streams = this.byUser.get(owner.userId);
    if (streams && streams.size >= this.maxPerUser) return null;
    if (!streams) this.byUser.set(owner.userId, (streams = new Set()));
    const stream: OpenStream = { owner, level: accessLevel(owner.role), end };
    streams.add(stream);
    return () => {
      streams.delete(stream);
      if (streams.size === 0 && this.byUser.get(owner.userId) === streams) this.byUser.delete(owner.userId);
    };
  }

  /** Ends every stream whose session no longer stands or whose role level changed; returns how many. */
  async revalidate(now = Date.now()): Promise<number> {
    const open = [...this.byUser.values()].flatMap((streams) => [...streams]);
    if (open.length === 0) return 0;
    const valid = new Map<string, AccessLevel>();
    const sessionIds = [...new Set(open.map((stream) => stream.owner.sessionId))];
    for (let i = 0; i < sessionIds.length; i += 500) {
      const rows = await this.db
        .selectFrom("session")
        .innerJoin("user", "user.id", "session.userId")
        .select(["session.id", "session.expiresAt", "user.role"])
        .where("session.id", "in", sessionIds.slice(i, i + 500))
        .execute();
      for (const row of rows) {
        if (new Date(row.expiresAt as string | Date).getTime() > now) valid.set(row.id, accessLevel(row.role));
      }
    }
    let ended = 0;
    for (const stream of open) {
      if (valid.get(stream.owner.sessionId) !== stream.level) {
        stream.end();
        ended++;
      }
    }
    return ended;
  }

  /** Checks every few seconds until the returned function is called. */
  startChecking(everyMs = streamCheckIntervalMs, onError?: (error: unknown) => void): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.revalidate()
        .catch((error: unknown) => onError?.(error))
        .finally(() => (running = false));
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
