import type { Auth } from "./auth.server";
import { messages } from "./messages";

/**
 * Hands a request under /api/auth/ to better-auth, answering every rate-limit refusal with the
 * product's own message. (Foreign origins were refused before, by the root middleware.)
 */
export async function handleAuthRequest(auth: Auth, request: Request): Promise<Response> {
  const response = await auth.handler(request);
  if (response.status !== 429) return response;
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  await response.body?.cancel();
  return new Response(JSON.stringify({ code: "TOO_MANY_REQUESTS", message: messages.tooManyAttempts }), {
    status: 429,
    headers,
  });
}
