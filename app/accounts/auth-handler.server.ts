import type { Auth } from "./auth.server";
import { messages } from "./messages";

/** True when a browser says the request comes from another site. */
export function isForeignOrigin(request: Request, appUrl: string): boolean {
  const origin = request.headers.get("origin");
  return origin !== null && origin !== new URL(appUrl).origin;
}

/**
 * Hands a request under /api/auth/ to better-auth, refusing foreign origins on anything that
 * changes state and answering every rate-limit refusal with the product's own message.
 */
export async function handleAuthRequest(auth: Auth, request: Request, appUrl: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD" && isForeignOrigin(request, appUrl)) {
    return Response.json({ message: "This request came from another site and was refused." }, { status: 403 });
  }
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
