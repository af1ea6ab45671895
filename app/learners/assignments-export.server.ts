import type { Db } from "~/db/database.server";

/** A learner's handed-in file as it is named in their data archive. */
export function assignmentFileName(file: { id: string; fileName: string }): string {
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(file.fileName.slice(-9))?.[0].toLowerCase() ?? "";
  return `files/assignments/${file.id}${extension}`;
}

/** The files a learner uploaded for assignments: where each is stored, and its name in the archive. */
export async function learnerAssignmentFiles(db: Db, userId: string) {
  const rows = await db
    .selectFrom("assignment_file")
    .select(["id", "fileName", "storageKey"])
    .where("learnerId", "=", userId)
    .orderBy("createdAt")
    .execute();
  return rows.map((row) => ({ storageKey: row.storageKey, name: assignmentFileName(row) }));
}

/**
 * data.json's "assignments": each assignment set for the learner with its status and points,
 * what they handed in (links, and files by their name in the archive) and the conversation.
 */
export async function learnerAssignmentsJson(db: Db, userId: string) {
  const [assignments, submissions, comments] = await Promise.all([
    db
      .selectFrom("learner_assignment")
      .innerJoin("assignment", "assignment.id", "learner_assignment.assignmentId")
      .select(["assignment.id", "assignment.title", "assignment.instructions", "assignment.dueAt"])
      .select(["assignment.points as pointsPossible", "learner_assignment.status", "learner_assignment.points"])
      .select(["learner_assignment.submittedAt", "learner_assignment.reviewedAt"])
      .where("learner_assignment.learnerId", "=", userId)
      .orderBy("assignment.dueAt")
      .execute(),
    db
      .selectFrom("submission")
      .leftJoin("assignment_file", "assignment_file.id", "submission.fileId")
      .select(["submission.assignmentId", "submission.link", "submission.late", "submission.submittedAt"])
      .select(["assignment_file.id as fileId", "assignment_file.fileName"])
      .where("submission.learnerId", "=", userId)
      .orderBy("submission.submittedAt")
      .execute(),
    db
      .selectFrom("assignment_comment")
      .select(["assignmentId", "authorName", "kind", "body", "createdAt"])
      .where("learnerId", "=", userId)
      .orderBy("createdAt")
      .execute(),
  ]);
  return assignments.map(({ id, instructions, ...assignment }) => ({
    ...assignment,
    instructionsHtml: instructions,
    handedIn: submissions
      .filter((submission) => submission.assignmentId === id)
      .map((submission) => ({
        link: submission.link,
        file:
          submission.fileId && submission.fileName
            ? assignmentFileName({ id: submission.fileId, fileName: submission.fileName })
            : null,
        late: Boolean(submission.late),
        submittedAt: submission.submittedAt,
      })),
    conversation: comments
      .filter((comment) => comment.assignmentId === id)
      .map(({ assignmentId: _assignment, ...comment }) => comment),
  }));
}
