import type { MessageKind } from "~/db/schema";
import type { AuditEntry, LearnerCard, LearnerFilter, LearnerPage } from "./staff-types";

/** The browser's side of /api/staff/*: answers as data or as the server's message. */
export type StaffAnswer<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

const failed = "Something went wrong. Please try again.";

async function call<T>(path: string, init?: RequestInit): Promise<StaffAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(`/api/staff/${path}`, { credentials: "same-origin", ...init });
  } catch {
    return {
      ok: false,
      status: 0,
      message: "The server could not be reached. Please check your connection and try again.",
    };
  }
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

const send = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

const query = (filter: LearnerFilter, page?: number) => {
  const params = new URLSearchParams();
  if (filter.search) params.set("search", filter.search);
  if (filter.course) params.set("course", filter.course);
  if (page) params.set("page", String(page));
  return params.toString();
};

export const staffClient = {
  learners: (filter: LearnerFilter, page: number) => call<LearnerPage>(`learners?${query(filter, page)}`),
  learner: (id: string) => call<{ learner: LearnerCard }>(`learners/${encodeURIComponent(id)}`),
  courses: () => call<{ courses: string[] }>("courses"),
  count: (filter: LearnerFilter) => call<{ count: number }>(`count?${query(filter)}`),
  send: (learnerId: string, kind: MessageKind, html: string) =>
    call<{ message: string }>("send", send("POST", { learnerId, kind, html })),
  bulkSend: (filter: LearnerFilter, kind: MessageKind, html: string, expectedCount: number) =>
    call<{ message: string; count: number }>("bulk-send", send("POST", { ...filter, kind, html, expectedCount })),
  clear: (learnerId: string, kind: MessageKind) =>
    call<{ message: string; count: number }>("clear", send("POST", { learnerId, kind })),
  offerLetter: (learnerId: string) =>
    call<{ offerLetter: { html: string; updatedAt: string } | null }>(`offer-letter/${encodeURIComponent(learnerId)}`),
  saveOfferLetter: (learnerId: string, html: string) =>
    call<{ message: string }>("offer-letter", send("PUT", { learnerId, html })),
  changeRole: (userId: string, role: string) =>
    call<{ message: string; role: string | null }>("role", send("POST", { userId, role })),
  audit: () => call<{ entries: AuditEntry[] }>("audit"),
};
