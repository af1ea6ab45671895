/** A JSON endpoint's answer in the browser: its data, or the message to show. */
export type Answer<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

const failed = "Something went wrong. Please try again.";

/** Calls one of our JSON endpoints; never throws, so every caller shows a clear message. */
export async function callJson<T>(url: string, init?: RequestInit): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin", ...init });
  } catch {
    return {
      ok: false,
      status: 0,
      message: "The server could not be reached. Please check your connection and try again.",
    };
  }
  if (response.status === 204) return { ok: true, data: undefined as T };
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON
  }
  if (response.ok) return { ok: true, data: body as T };
  const message = (body as { message?: unknown } | null)?.message;
  return { ok: false, status: response.status, message: typeof message === "string" ? message : failed };
}
