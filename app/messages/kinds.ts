// The kinds of message staff send to learners. Everything else (the database type, the forms,
// the dashboard's popups, the audit log) derives from this list.

export const messageKinds = ["notice", "task", "certificate"] as const;

export type MessageKind = (typeof messageKinds)[number];

/** What a learner reads and has unread counts for: each message kind, and the offer letter. */
export const readableKinds = [...messageKinds, "offer"] as const;

export type ReadableKind = (typeof readableKinds)[number];

/**
 * A record with one entry per kind, made from the list, so a kind added to the list is never
 * missing from it (the one place a list becomes a record).
 */
export function perKind<Kind extends string, Value>(
  kinds: readonly Kind[],
  value: (kind: Kind) => Value,
): Record<Kind, Value> {
  return Object.fromEntries(kinds.map((kind) => [kind, value(kind)])) as Record<Kind, Value>;
}

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
