import { redirect } from "react-router";
import { requireRole } from "~/accounts/permissions.server";
import { csvResponse } from "~/core/csv.server";
import { formatDateTime } from "~/core/dates";
import { idFromAddress } from "~/core/text";
import { plain } from "~/core/fields";
import { getServices } from "~/platform/services.server";
import { trainedBatchIds } from "~/batches/batch-edit.server";
import { assignmentMatrix, reviewChoices, reviewQueue } from "./review-queue.server";
import { statusLabels } from "./statuses";

const filterText = plain(200, "Unknown filter.").catch("");

/**
 * /staff/reviews: the queue, filtered by batch and assignment (both in the URL). Without a batch
 * in the URL a trainer is sent to their own batches (`?batch=mine`, which they can change to
 * "all"); staff who teach none see all.
 */
export async function loadReviews(request: Request) {
  const user = await requireRole(request, "staff");
  const url = new URL(request.url);
  const { database, config } = await getServices();
  const db = database.db;
  const asked = filterText.parse(url.searchParams.get("batch") ?? "");
  const myBatchIds = await trainedBatchIds(db, user.id);
  if (!asked && myBatchIds.length > 0) {
    url.searchParams.set("batch", "mine");
    throw redirect(`${url.pathname}?${url.searchParams}`);
  }
  const filter = {
    batch: asked || "all",
    assignmentId: filterText.parse(url.searchParams.get("assignment") ?? ""),
    myBatchIds,
  };
  const [queue, choices] = await Promise.all([reviewQueue(db, filter), reviewChoices(db, filter)]);
  return {
    user: { username: user.username, level: user.level },
    timeZone: config.instituteTimeZone,
    filter: { batch: filter.batch, assignmentId: filter.assignmentId },
    myBatchIds,
    ...queue,
    ...choices,
  };
}

export type ReviewsData = Awaited<ReturnType<typeof loadReviews>>;

async function matrixOrNotFound(assignmentId: string) {
  const { database, config } = await getServices();
  const id = idFromAddress(assignmentId);
  const matrix = id ? await assignmentMatrix(database.db, id) : null;
  if (!matrix) throw new Response("No such assignment.", { status: 404 });
  return { matrix, timeZone: config.instituteTimeZone };
}

/** /staff/assignments/:id: the assignment's learners × status. */
export async function loadAssignmentPage(request: Request, assignmentId: string) {
  const user = await requireRole(request, "staff");
  const { matrix, timeZone } = await matrixOrNotFound(assignmentId);
  return { user: { username: user.username, level: user.level }, timeZone, ...matrix };
}

export type AssignmentPageData = Awaited<ReturnType<typeof loadAssignmentPage>>;

export const matrixColumns = [
  { key: "name", header: "learner" },
  { key: "email", header: "email" },
  { key: "status", header: "status" },
  { key: "points", header: "points" },
  { key: "submittedAt", header: "last submitted" },
] as const;

type Matrix = NonNullable<Awaited<ReturnType<typeof assignmentMatrix>>>;

/** The matrix's rows as the download's records. */
export function matrixRecords(assignment: Matrix["assignment"], learners: Matrix["learners"], timeZone: string) {
  return learners.map((row) => ({
    name: row.name,
    email: row.email,
    status: statusLabels[row.status],
    points: row.points === null ? "" : `${row.points} of ${assignment.maxPoints ?? ""}`,
    submittedAt: row.submittedAt ? formatDateTime(row.submittedAt, timeZone) : "",
  }));
}

/** /staff/assignments/:id/matrix.csv: the same matrix through the one CSV writer. */
export async function assignmentMatrixCsv(request: Request, assignmentId: string) {
  await requireRole(request, "staff");
  const { matrix, timeZone } = await matrixOrNotFound(assignmentId);
  return csvResponse(matrixRecords(matrix.assignment, matrix.learners, timeZone), matrixColumns, "assignment.csv");
}
