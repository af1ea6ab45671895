import { unreachableMessage } from "~/ui/unreachable";
import { messages } from "./messages";

export interface AuthAnswer {
  ok: boolean;
  status: number;
  /** The server's message when it refused (better-auth's own wording, or ours). */
  message: string;
  /** better-auth's error code ("PASSWORD_TOO_SHORT"), when it gave one. */
  code?: string;
  /** The request field the refusal names ("email" from "[body.email] …"), when it names one. */
  field?: string;
}

/** Posts JSON to an /api/auth endpoint and reads the answer the way the modal shows it. */
export async function postAuth(endpoint: string, body: unknown): Promise<AuthAnswer> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    // The form keeps what was typed; pressing its button again is the retry.
    return { ok: false, status: 0, message: unreachableMessage };
  }
  if (response.ok) return { ok: true, status: response.status, message: "" };
  if (response.status === 429) return { ok: false, status: 429, message: messages.tooManyAttempts };
  let message = "";
  let code: string | undefined;
  try {
    const json = (await response.json()) as { message?: unknown; code?: unknown };
    if (typeof json.message === "string") message = json.message;
    if (typeof json.code === "string") code = json.code;
  } catch {
    // Not JSON: fall back to the general message.
  }
  // better-auth prefixes schema errors with the field ("[body.email] Invalid email address").
  const field = /^\[body\.(\w+)\]/.exec(message)?.[1];
  message = message.replace(/^\[[^\]]*\]\s*/, "");
  return { ok: false, status: response.status, message: message || messages.somethingWentWrong, code, field };
}

/** True while the browser still holds a live session (asks the server). */
export async function hasLiveSession(): Promise<boolean | undefined> {
  try {
    const response = await fetch("/api/auth/get-session", { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return undefined;
    const json = (await response.json()) as { session?: unknown } | null;
    return Boolean(json && json.session);
  } catch {
    // Offline or restarting: no verdict.
    return undefined;
  }
}
