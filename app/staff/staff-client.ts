import type { MessageKind } from "~/db/schema";
import type { AuditEntry, LearnerCard, LearnerFilter, LearnerPage } from "./staff-types";

import { callJson, type Answer } from "~/ui/api-client";

/** The browser's side of /api/staff/*: answers as data or as the server's message. */
export type StaffAnswer<T> = Answer<T>;

const call = <T>(path: string, init?: RequestInit) => callJson<T>(`/api/staff/${path}`, init);

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
