import { isAnonymousRequest } from "~/http/anonymous-request";
import { getAuth } from "./auth.server";

/** What the pages need to know about the signed-in user. */
export interface SessionUser {
  id: string;
  /** The session this request came with (live streams end with it). */
  sessionId: string;
  username: string;
  email: string;
  /** Null for learners; "admin" or another staff value. */
  role: string | null;
  /** When the account was created (ISO-8601). */
  createdAt: string;
}

/**
 * The signed-in user, or null. A request without a session cookie is anonymous at once,
 * without a database query (the public page is served to it from the shared cache).
 */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  if (isAnonymousRequest(request.headers.get("cookie") ?? undefined)) return null;
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const { user } = session;
  return {
    id: user.id,
    sessionId: session.session.id,
    username: user.username || user.name,
    email: user.email,
    role: user.role ? user.role : null,
    createdAt: new Date(user.createdAt).toISOString(),
  };
}
