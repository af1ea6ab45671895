// The kinds of message staff send to learners. Everything else (the database type, the forms,
// the dashboard's popups, the audit log) derives from this list.

export const messageKinds = ["notice", "task", "certificate"] as const;

export type MessageKind = (typeof messageKinds)[number];

/** What a learner reads and has unread counts for: each message kind, and the offer letter. */
export const readableKinds = [...messageKinds, "offer"] as const;

export type ReadableKind = (typeof readableKinds)[number];

/** How many messages one page of a popup shows. */
export const messagePageSize = 50;

/** The most pages a popup shows at once ("Show older" adds one). */
export const maxMessagePages = 40;

/** The most items one "mark read" can name: everything a popup shows at its longest. */
export const maxMarkedAtOnce = messagePageSize * maxMessagePages;

/** How each kind is named in the product's texts. */
export const kindLabels: Record<MessageKind, { singular: string; plural: string; title: string }> = {
  notice: { singular: "notice", plural: "notices", title: "Notice" },
  task: { singular: "task", plural: "tasks", title: "Task" },
  certificate: { singular: "certificate", plural: "certificates", title: "Certificate" },
};
