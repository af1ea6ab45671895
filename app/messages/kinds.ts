// The kinds of message staff send to learners. Everything else (the database type, the forms,
// the dashboard's popups, the audit log) derives from this list.

export const messageKinds = ["notice", "task", "certificate"] as const;

export type MessageKind = (typeof messageKinds)[number];

/** How each kind is named in the product's texts. */
export const kindLabels: Record<MessageKind, { singular: string; plural: string; title: string }> = {
  notice: { singular: "notice", plural: "notices", title: "Notice" },
  task: { singular: "task", plural: "tasks", title: "Task" },
  certificate: { singular: "certificate", plural: "certificates", title: "Certificate" },
};
