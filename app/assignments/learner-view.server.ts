import type { Db } from "~/db/database.server";
import type { AssignmentStatus, HandIn } from "./statuses";

// What a learner reads of their assignments (the Tasks popup), and what staff read of one
// learner's assignment (the review screen): the work handed in and the conversation under it.

export interface HandedIn {
  id: string;
  link: string | null;
  file: { id: string; name: string; size: number } | null;
  late: boolean;
  at: string;
}

export interface Comment {
  id: string;
  kind: "reply" | "changes" | "accepted" | "feedback";
  author: string;
  body: string;
  at: string;
  /** Shown to the learner already (their own replies always are). */
  read: boolean;
}

export interface LearnerAssignmentView {
  id: string;
  title: string;
  /** Sanitized HTML. */
  instructions: string;
  dueAt: string;
  handIn: HandIn;
  maxPoints: number | null;
  status: AssignmentStatus;
  points: number | null;
  batch: string | null;
  /** Newest first. */
  submissions: HandedIn[];
  /** Oldest first, as a conversation reads. */
  comments: Comment[];
}

/** The most a learner's list shows: every assignment of a long course, due soonest first. */
const maxListed = 200;

/** Submissions and conversations of these (assignment, learner) pairs. */
export async function workAndTalk(db: Db, pairs: readonly { assignmentId: string; learnerId: string }[]) {
  const assignmentIds = [...new Set(pairs.map((pair) => pair.assignmentId))];
  const learnerIds = [...new Set(pairs.map((pair) => pair.learnerId))];
  if (assignmentIds.length === 0)
    return { submissions: new Map<string, HandedIn[]>(), comments: new Map<string, Comment[]>() };
  const [submissionRows, commentRows] = await Promise.all([
    db
      .selectFrom("submission")
      .leftJoin("assignment_file", "assignment_file.id", "submission.fileId")
      .select([
        "submission.id",
        "submission.assignmentId",
        "submission.learnerId",
        "submission.link",
        "submission.late",
        "submission.submittedAt",
        "assignment_file.id as fileId",
        "assignment_file.fileName",
        "assignment_file.size",
      ])
      .where("submission.assignmentId", "in", assignmentIds)
      .where("submission.learnerId", "in", learnerIds)
      .orderBy("submission.submittedAt", "desc")
      .orderBy("submission.id", "desc")
      .execute(),
    db
      .selectFrom("assignment_comment")
      .select(["id", "assignmentId", "learnerId", "kind", "authorName", "body", "createdAt", "readAt"])
      .where("assignmentId", "in", assignmentIds)
      .where("learnerId", "in", learnerIds)
      .orderBy("createdAt")
      .orderBy("id")
      .execute(),
  ]);
  const submissions = new Map<string, HandedIn[]>();
  for (const row of submissionRows) {
    const key = `${row.assignmentId}:${row.learnerId}`;
    const list = submissions.get(key) ?? [];
    list.push({
      id: row.id,
      link: row.link,
      file: row.fileId ? { id: row.fileId, name: row.fileName ?? "", size: Number(row.size ?? 0) } : null,
      late: Boolean(row.late),
      at: row.submittedAt,
    });
    submissions.set(key, list);
  }
  const comments = new Map<string, Comment[]>();
  for (const row of commentRows) {
    const key = `${row.assignmentId}:${row.learnerId}`;
    const list = comments.get(key) ?? [];
    list.push({
      id: row.id,
      kind: row.kind,
      author: row.authorName,
      body: row.body,
      at: row.createdAt,
      read: row.readAt !== null,
    });
    comments.set(key, list);
  }
  return { submissions, comments };
}

/** The learner's assignments, due soonest first, each with its work and conversation. */
export async function learnerAssignments(db: Db, learnerId: string): Promise<LearnerAssignmentView[]> {
  const rows = await db
    .selectFrom("learner_assignment")
    .innerJoin("assignment", "assignment.id", "learner_assignment.assignmentId")
    .leftJoin("batch", "batch.id", "assignment.batchId")
    .select([
      "assignment.id",
      "assignment.title",
      "assignment.instructions",
      "assignment.dueAt",
      "assignment.handIn",
      "assignment.points as maxPoints",
      "learner_assignment.status",
      "learner_assignment.points",
      "batch.name as batch",
    ])
    .where("learner_assignment.learnerId", "=", learnerId)
    .orderBy("assignment.dueAt")
    .orderBy("assignment.id")
    .limit(maxListed)
    .execute();
  const { submissions, comments } = await workAndTalk(
    db,
    rows.map((row) => ({ assignmentId: row.id, learnerId })),
  );
  return rows.map((row) => ({
    ...row,
    maxPoints: row.maxPoints === null ? null : Number(row.maxPoints),
    points: row.points === null ? null : Number(row.points),
    submissions: submissions.get(`${row.id}:${learnerId}`) ?? [],
    comments: comments.get(`${row.id}:${learnerId}`) ?? [],
  }));
}
