import { useId, useRef, useState } from "react";
import { formatDateTime } from "~/core/dates";
import { checkTaskLink } from "~/learners/task-link-rules";
import { ErrorLine, Field } from "~/ui/form";
import { primaryButton, secondaryButton, messageBody } from "~/ui/styles";
import { LostChange } from "~/ui/LostChange";
import { useAction } from "~/ui/use-action";
import { assignmentUploadPath } from "~/uploads/upload-paths";
import { assignmentLimits, assignmentMessages } from "./assignment-rules";
import { assignmentFileAccept, assignmentFileExtension } from "./file-types";
import type { LearnerAssignmentView } from "./learner-view.server";
import { StatusBadge, WorkAndTalk } from "./WorkAndTalk";

const interrupted = "The upload was interrupted. Choose the same file again to continue where it stopped.";

/** Sends one file with tus for an assignment: its progress in whole percent, and its id once stored. */
function useAssignmentUpload(assignmentId: string, maxMb: number) {
  const [progress, setProgress] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState<{ id: string; name: string } | null>(null);
  const [error, setError] = useState("");
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setError("");
    setUploaded(null);
    if (!assignmentFileExtension(file.name)) return setError(assignmentMessages.wrongFileType);
    if (file.size > maxMb * 1024 * 1024) return setError(assignmentMessages.tooLarge(maxMb));
    setProgress(0);
    const tus = await import("tus-js-client");
    const uploader = new tus.Upload(file, {
      endpoint: assignmentUploadPath,
      chunkSize: 512 * 1024,
      retryDelays: [0, 1_000, 3_000, 5_000],
      metadata: { filename: file.name, filetype: file.type, assignment: assignmentId },
      removeFingerprintOnSuccess: true,
      onProgress(sent, total) {
        setProgress(Math.floor((sent / total) * 100));
      },
      onSuccess() {
        setProgress(100);
        setUploaded({ id: uploader.url?.split("/").pop() ?? "", name: file.name });
      },
      onError(failure) {
        setProgress(null);
        const response = (failure as { originalResponse?: { getStatus(): number; getBody(): string } | null })
          .originalResponse;
        const status = response?.getStatus() ?? 0;
        const body = response?.getBody()?.trim() ?? "";
        if (status >= 400 && status < 500 && body) setError(body);
        else if (status >= 500) setError(body || "The file could not be saved. Please try again.");
        else setError(interrupted);
      },
    });
    const previous = await uploader.findPreviousUploads();
    if (previous[0]) uploader.resumeFromPreviousUpload(previous[0]);
    uploader.start();
  };
  return { progress, uploaded, error, upload, reset: () => (setUploaded(null), setProgress(null)) };
}

/** The submit box: a link, a file, or both, as the assignment asks; the same link rules as task links. */
function SubmitBox({ assignment, maxMb }: { assignment: LearnerAssignmentView; maxMb: number }) {
  const ids = useId();
  const action = useAction();
  const form = useRef<HTMLFormElement>(null);
  const file = useAssignmentUpload(assignment.id, maxMb);
  const [error, setError] = useState("");
  const wantsLink = assignment.handIn !== "file";
  const wantsFile = assignment.handIn !== "link";
  const again = assignment.submissions.length > 0;
  return (
    <form
      ref={form}
      className="mt-3 grid gap-2 rounded-md border border-slate-200 p-3"
      aria-label={`Hand in ${assignment.title}`}
      aria-busy={action.busy}
      onSubmit={(event) => {
        event.preventDefault();
        setError("");
        const link = String(new FormData(event.currentTarget).get("link") ?? "");
        if (wantsLink) {
          const checked = checkTaskLink(link);
          if (!checked.ok) return setError(checked.message);
        }
        if (wantsFile && !file.uploaded) return setError(assignmentMessages.needFile);
        action.submit(
          { intent: "submit-assignment", assignmentId: assignment.id, link, fileId: file.uploaded?.id ?? "" },
          {
            onDone: (answer) => {
              if (!answer.ok) return setError(answer.message);
              form.current?.reset();
              file.reset();
            },
          },
        );
      }}
    >
      {wantsLink ? (
        <Field id={`${ids}-link`} name="link" label="Link to your work" type="url" inputMode="url" maxLength={2048} />
      ) : null}
      {wantsFile ? (
        <div>
          <label htmlFor={`${ids}-file`} className="block text-sm font-semibold text-slate-900">
            Your file (PDF, ZIP or image, up to {maxMb} MB)
          </label>
          <input
            id={`${ids}-file`}
            type="file"
            accept={assignmentFileAccept}
            disabled={file.progress !== null && file.progress < 100}
            className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-blue-800 file:bg-white file:px-4 file:py-2 file:font-semibold file:text-blue-800"
            onChange={(event) => void file.upload(event.target.files?.[0])}
          />
          {file.progress !== null ? (
            <div className="mt-2 flex items-center gap-3">
              <div
                role="progressbar"
                aria-label={`Upload progress of your file for ${assignment.title}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={file.progress}
                className="h-3 flex-1 overflow-hidden rounded-full bg-slate-200"
              >
                <div className="h-full bg-blue-800 transition-[width]" style={{ width: `${file.progress}%` }} />
              </div>
              <span className="w-12 text-right text-sm font-semibold text-slate-800" data-testid="assignment-progress">
                {file.progress}%
              </span>
            </div>
          ) : null}
          {file.uploaded ? <p className="mt-1 text-sm text-slate-800">Uploaded: {file.uploaded.name}</p> : null}
          <ErrorLine message={file.error} />
        </div>
      ) : null}
      <ErrorLine message={error} />
      <div>
        <button type="submit" className={primaryButton} disabled={action.busy}>
          {again ? "Hand in again" : "Hand in"}
        </button>
      </div>
      <LostChange action={action} />
    </form>
  );
}

function ReplyBox({ assignment }: { assignment: LearnerAssignmentView }) {
  const ids = useId();
  const action = useAction();
  const [error, setError] = useState("");
  return (
    <form
      className="mt-2 grid gap-2"
      aria-label={`Reply about ${assignment.title}`}
      onSubmit={(event) => {
        event.preventDefault();
        const target = event.currentTarget;
        const body = String(new FormData(target).get("body") ?? "").trim();
        if (!body) return setError(assignmentMessages.replyRequired);
        setError("");
        action.submit(
          { intent: "reply-assignment", assignmentId: assignment.id, body },
          { onDone: (answer) => (answer.ok ? target.reset() : setError(answer.message)) },
        );
      }}
    >
      <Field
        id={`${ids}-reply`}
        name="body"
        label="Reply to your trainer"
        multiline
        maxLength={assignmentLimits.comment}
      />
      <ErrorLine message={error} />
      <div>
        <button type="submit" className={secondaryButton} disabled={action.busy}>
          Send reply
        </button>
      </div>
      <LostChange action={action} />
    </form>
  );
}

/** The learner's assignments in the Tasks popup: due soonest first, each with its status and submit box. */
export function LearnerAssignments({
  assignments,
  timeZone,
  maxMb,
}: {
  assignments: LearnerAssignmentView[];
  timeZone: string;
  maxMb: number;
}) {
  if (assignments.length === 0) return null;
  return (
    <section aria-labelledby="assignments-heading" className="mb-6">
      <h3 id="assignments-heading" className="text-lg font-bold text-slate-900">
        Assignments
      </h3>
      <ol className="mt-2 space-y-4">
        {assignments.map((assignment) => (
          <li
            key={assignment.id}
            id={`assignment-${assignment.id}`}
            className="rounded-lg border border-slate-300 p-4"
            data-testid="assignment"
          >
            <h4 className="font-bold text-slate-900">{assignment.title}</h4>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
              <span>
                Due <time dateTime={assignment.dueAt}>{formatDateTime(assignment.dueAt, timeZone)}</time>
              </span>
              {assignment.batch ? <span>· {assignment.batch}</span> : null}
              {assignment.maxPoints !== null ? <span>· {assignment.maxPoints} points</span> : null}
              <StatusBadge status={assignment.status} points={assignment.points} maxPoints={assignment.maxPoints} />
            </p>
            {assignment.instructions ? (
              <div className={`mt-2 ${messageBody}`} dangerouslySetInnerHTML={{ __html: assignment.instructions }} />
            ) : null}
            <WorkAndTalk
              submissions={assignment.submissions}
              comments={assignment.comments}
              timeZone={timeZone}
              headingLevel={5}
            />
            {assignment.status === "accepted" ? null : <SubmitBox assignment={assignment} maxMb={maxMb} />}
            {assignment.submissions.length > 0 || assignment.comments.length > 0 ? (
              <ReplyBox assignment={assignment} />
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
