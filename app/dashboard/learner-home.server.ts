import type { Db } from "~/db/database.server";
import { compiledOnce } from "~/db/compiled-once.server";
import { withSender } from "~/messages/messages.server";
import type { AssignmentStatus } from "~/assignments/statuses";
import { personName } from "~/accounts/person-name";

// What the top of the learner's home shows: what needs them, in the order it needs them.

export interface LearnerHome {
  /** Assignments not yet accepted, due soonest first. */
  dueNext: { id: string; title: string; dueAt: string; status: AssignmentStatus; batch: string | null }[];
  /** Offer letters awaiting the learner's answer, with the date it is due by ('YYYY-MM-DD' or none). */
  needsReply: { id: string; title: string; replyBy: string | null }[];
  /** Unread notices, tasks and trainers' feedback, newest first. */
  fromTrainer: { id: string; kind: "notice" | "task" | "feedback"; text: string; at: string; from: string | null }[];
  /** Per batch the learner is in: assignments accepted of total. */
  batches: { id: string; name: string; accepted: number; total: number }[];
}

const listed = 5;
const snippetLength = 140;

/** A message's HTML as one short line of text (shown as text, never as HTML). */
function snippet(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, " ")
    .replaceAll("&nbsp;", " ")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > snippetLength ? `${text.slice(0, snippetLength - 1)}…` : text;
}

/** Offer letters of the learner still waiting for an answer today ('YYYY-MM-DD', the institute's). */
const offersAwaitingReply = compiledOnce((db: Db, learnerId: string, today: string) =>
  db
    .selectFrom("document")
    .select(["id", "title", "replyBy"])
    .where("learnerId", "=", learnerId)
    .where("kind", "=", "offer-letter")
    .where("response", "is", null)
    .where("revokedAt", "is", null)
    .where((eb) => eb.or([eb("replyBy", "is", null), eb("replyBy", ">=", today)]))
    .orderBy("replyBy")
    .orderBy("id")
    .limit(listed),
);

// Every render of a learner's home reads these: compiled once (compiledOnce), not per request.
const dueNextRows = compiledOnce((db: Db, learnerId: string) =>
  db
    .selectFrom("learner_assignment")
    .innerJoin("assignment", "assignment.id", "learner_assignment.assignmentId")
    .leftJoin("batch", "batch.id", "assignment.batchId")
    .select([
      "assignment.id",
      "assignment.title",
      "assignment.dueAt",
      "learner_assignment.status",
      "batch.name as batch",
    ])
    .where("learner_assignment.learnerId", "=", learnerId)
    .where("learner_assignment.status", "!=", "accepted")
    .orderBy("assignment.dueAt")
    .orderBy("assignment.id")
    .limit(listed),
);

const unreadMessageRows = compiledOnce((db: Db, learnerId: string) =>
  withSender(db, learnerId)
    .where("message.readAt", "is", null)
    .where("message.kind", "in", ["notice", "task"])
    .orderBy("message.sentAt", "desc")
    .limit(listed),
);

const unreadFeedbackRows = compiledOnce((db: Db, learnerId: string) =>
  db
    .selectFrom("assignment_comment")
    .innerJoin("assignment", "assignment.id", "assignment_comment.assignmentId")
    .select([
      "assignment_comment.id",
      "assignment_comment.kind",
      "assignment_comment.authorName",
      "assignment_comment.body",
      "assignment_comment.createdAt",
      "assignment.title",
    ])
    .where("assignment_comment.learnerId", "=", learnerId)
    .where("assignment_comment.readAt", "is", null)
    .where("assignment_comment.kind", "!=", "reply")
    .orderBy("assignment_comment.createdAt", "desc")
    .limit(listed),
);

const batchProgressRows = compiledOnce((db: Db, learnerId: string) =>
  db
    .selectFrom("enrolment")
    .innerJoin("batch", "batch.id", "enrolment.batchId")
    .leftJoin("assignment", "assignment.batchId", "batch.id")
    .leftJoin("learner_assignment", (join) =>
      join
        .onRef("learner_assignment.assignmentId", "=", "assignment.id")
        .on("learner_assignment.learnerId", "=", learnerId),
    )
    .select((eb) => [
      "batch.id",
      "batch.name",
      eb.fn.count<number | string>("learner_assignment.assignmentId").as("total"),
      eb.fn
        .count<number | string>(eb.case().when("learner_assignment.status", "=", "accepted").then(1).end())
        .as("accepted"),
    ])
    .where("enrolment.learnerId", "=", learnerId)
    .groupBy(["batch.id", "batch.name", "batch.startDate"])
    .orderBy("batch.startDate", "desc")
    .limit(50),
);

export async function learnerHome(db: Db, learnerId: string, today: string): Promise<LearnerHome> {
  const [dueNext, needsReply, unread, feedback, progress] = await Promise.all([
    dueNextRows(db, learnerId),
    offersAwaitingReply(db, learnerId, today),
    unreadMessageRows(db, learnerId),
    unreadFeedbackRows(db, learnerId),
    batchProgressRows(db, learnerId),
  ]);
  const fromTrainer: LearnerHome["fromTrainer"] = [
    ...unread.map((row) => ({
      id: row.id,
      kind: row.kind as "notice" | "task",
      text: snippet(row.body),
      at: row.sentAt,
      from: personName(row) || null,
    })),
    ...feedback.map((row) => ({
      id: row.id,
      kind: "feedback" as const,
      text: `${row.title}: ${snippet(row.body) || (row.kind === "accepted" ? "Accepted" : "Feedback")}`,
      at: row.createdAt,
      from: row.authorName,
    })),
  ]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, listed * 2);
  return {
    dueNext,
    needsReply,
    fromTrainer,
    batches: progress.map((row) => ({
      id: row.id,
      name: row.name,
      accepted: Number(row.accepted),
      total: Number(row.total),
    })),
  };
}
