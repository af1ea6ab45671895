import type { LearnerState, MessageItem, MessageKindName } from "~/learners/learner-state";

/** The browser's side of /api/learner/*: answers as data or as the server's message. */
export type Answer<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

const failed = "Something went wrong. Please try again.";

async function call<T>(path: string, init?: RequestInit): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(`/api/learner/${path}`, { credentials: "same-origin", ...init });
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

export const learnerClient = {
  state: () => call<LearnerState>("state"),
  messages: (kind: MessageKindName) => call<{ messages: MessageItem[] }>(`messages?kind=${kind}`),
  markNoticesRead: () => call<{ unreadNotices: number }>("notices/read", { method: "POST" }),
  offerLetter: () => call<{ offerLetter: { html: string; updatedAt: string } | null }>("offer-letter"),
  uploadPhoto: (file: File) =>
    call<{ photoUrl: string }>("photo", {
      method: "POST",
      body: file,
      headers: { "content-type": file.type || "application/octet-stream" },
    }),
  deleteResume: () => call<void>("resume", { method: "DELETE" }),
  addTaskLink: (link: string) =>
    call<{ taskLink: LearnerState["taskLinks"][number] }>("task-links", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ link }),
    }),
  deleteTaskLink: (id: string) => call<void>(`task-links/${encodeURIComponent(id)}`, { method: "DELETE" }),
};

export const resumeUploadEndpoint = "/api/learner/resume/upload";
export const resumeDownloadUrl = "/api/learner/resume";
