import { formatDateTime } from "~/core/dates";
import { assignmentFilePath } from "~/uploads/upload-paths";
import type { Comment, HandedIn } from "./learner-view.server";
import { statusLabels, type AssignmentStatus } from "./statuses";

const statusStyles: Record<AssignmentStatus, string> = {
  "not-started": "bg-slate-100 text-slate-800",
  submitted: "bg-blue-100 text-blue-900",
  late: "bg-amber-100 text-amber-900",
  "changes-requested": "bg-red-100 text-red-900",
  accepted: "bg-green-100 text-green-900",
};

/** A learner's assignment status as a badge ("Accepted, 8 of 10 points"). */
export function StatusBadge({
  status,
  points = null,
  maxPoints = null,
}: {
  status: AssignmentStatus;
  points?: number | null;
  maxPoints?: number | null;
}) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-sm font-semibold ${statusStyles[status]}`}
      data-testid="assignment-status"
    >
      {statusLabels[status]}
      {status === "accepted" && points !== null ? `, ${points} of ${maxPoints ?? points} points` : ""}
    </span>
  );
}

const kindWords: Record<Comment["kind"], string> = {
  reply: "replied",
  changes: "asked for changes",
  accepted: "accepted it",
  feedback: "wrote",
};

/** What was handed in (newest first) and the conversation under it (oldest first). */
export function WorkAndTalk({
  submissions,
  comments,
  timeZone,
  headingLevel = 3,
}: {
  submissions: HandedIn[];
  comments: Comment[];
  timeZone: string;
  headingLevel?: 3 | 4 | 5;
}) {
  const Heading = (["h3", "h4", "h5"] as const)[headingLevel - 3]!;
  return (
    <div className="mt-3 grid gap-3">
      {submissions.length > 0 ? (
        <div>
          <Heading className="font-semibold text-slate-900">Handed in</Heading>
          <ol className="mt-1 grid gap-1 text-sm">
            {submissions.map((work, index) => (
              <li key={work.id} className={index === 0 ? "" : "text-slate-700"}>
                {formatDateTime(work.at, timeZone)}
                {work.late ? <span className="ml-1 font-semibold text-amber-900">(late)</span> : null}
                {work.link ? (
                  <>
                    {": "}
                    <a
                      href={work.link}
                      target="_blank"
                      rel="noopener noreferrer nofollow"
                      className="text-blue-800 underline [overflow-wrap:anywhere]"
                    >
                      {work.link}
                    </a>
                  </>
                ) : null}
                {work.file ? (
                  <>
                    {work.link ? " and " : ": "}
                    <a href={assignmentFilePath(work.file.id)} className="text-blue-800 underline" download>
                      {work.file.name}
                    </a>{" "}
                    ({Math.max(1, Math.round(work.file.size / 1024)).toLocaleString("en-IN")} KB)
                  </>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {comments.length > 0 ? (
        <div>
          <Heading className="font-semibold text-slate-900">Conversation</Heading>
          <ol className="mt-1 grid gap-2 text-sm">
            {comments.map((comment) => (
              <li key={comment.id} className="rounded-md bg-slate-50 p-2" data-testid="assignment-comment">
                <p className="text-slate-700">
                  <span className="font-semibold text-slate-900">{comment.author}</span> {kindWords[comment.kind]},{" "}
                  {formatDateTime(comment.at, timeZone)}
                </p>
                {comment.body ? (
                  <p className="mt-1 whitespace-pre-wrap [overflow-wrap:anywhere]">{comment.body}</p>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </div>
  );
}
