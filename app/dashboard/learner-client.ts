import type { LearnerState, MessageItem, MessageKindName } from "~/learners/learner-state";

import { callJson, type Answer } from "~/ui/api-client";

/** The browser's side of /api/learner/*: answers as data or as the server's message. */
export type { Answer };

const call = <T>(path: string, init?: RequestInit) => callJson<T>(`/api/learner/${path}`, init);

export const learnerClient = {
  state: () => call<LearnerState>("state"),
  messages: (kind: MessageKindName, before?: string) =>
    call<{ messages: MessageItem[]; older: string | null }>(
      `messages?kind=${kind}${before ? `&before=${encodeURIComponent(before)}` : ""}`,
    ),
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
